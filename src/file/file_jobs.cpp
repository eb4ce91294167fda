// whole-texture jobs: see texdec_file.h item 3
