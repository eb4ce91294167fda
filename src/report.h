// Messages through a context's callback, for code that does not see the context's state (src/cpu).
#pragma once
#include <texdec/texdec.h>

#include "printf_like.h"

struct texdec_context;

namespace texdec {

// ctx->report: sends a printf-style message to the context's callback (if any; ctx may be
// nullptr) and returns `status` (context.cpp).
texdec_status report(const texdec_context* ctx, texdec_status status, texdec_message_severity severity, const char* fmt,
                     ...) TEXDEC_PRINTF_LIKE(4, 5);

}  // namespace texdec
