// Must not compile: the engine is below the pipeline (see CMakeLists.txt).
#include "pipeline/settings.h"

int layersUpwardProbe() {
    return 0;
}
