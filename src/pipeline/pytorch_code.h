#pragma once
// Python source that rebuilds the same input and module in PyTorch (the chapter's classes, the
// same manual seeds, the same files) and leaves the module's result in a variable named
// `output`, with a sentence saying exactly when it gives the numbers the view shows.

#include <string>

#include "pipeline/model_request.h"
#include "pipeline/request.h"

namespace attn {

struct PyTorchListing {
    std::string code;
    // When the code gives the view's numbers, e.g. "Gives the same output as the view (float32,
    // to about 1e-6) on any CPU build of PyTorch." Also the first comment of `code`.
    std::string reproduces;
    // False when this machine's kind of PyTorch may give other numbers (the MKL dropout kernel).
    bool exact = true;
};

// For a run of runSettings (its config is what actually ran: d_in and batch may come from an
// embeddings file). Loaded files are read by path, safetensors with the standard library only,
// and loaded strictly: every parameter must be in the file. After `output` it prints the step
// `stepId` (empty: the run's settings.step), the view's step: read from what the chapter's
// forward() computed on the way (its local variables, recorded while it runs), under the
// chapter's name (attn_weights for weights), or derived from them where the forward keeps no
// variable for it (the simple masking method's steps).
PyTorchListing pytorchListing(const TraceRun& run, const std::string& stepId = {});

// Model mode: Python that loads the same model file with torch (safetensors through the
// standard library, torch.save files with torch.load), runs the chapter-4 forward on the same
// token ids and prints block settings.layer's attention weights and the most probable next
// tokens: the numbers the view shows.
PyTorchListing pytorchModelListing(const ModelRun& run);

}  // namespace attn
