// Compiles: the engine sees its own headers.
#include "engine/config.h"

int layersOwnProbe() {
    return attn::Config().heads > 0 ? 0 : 1;
}
