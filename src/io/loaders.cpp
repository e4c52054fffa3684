#include "io/loaders.h"

#include <cmath>

#include "io/csv.h"
#include "io/file_io.h"
#include "io/json_tensor.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io/text_format.h"

namespace attn::io {

namespace {

std::string indexText(const Shape& shape, int64_t linear) {
    std::string s;
    std::vector<int64_t> index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = linear % shape[d];
        linear /= shape[d];
    }
    for (int64_t i : index) {
        s += '[';
        s += std::to_string(i);
        s += ']';
    }
    return s;
}

}  // namespace

Tensor readEmbeddingsFile(const std::string& path) {
    const std::string name = fileDisplayName(path);
    const std::string ext = fileExtension(path);
    Tensor x;
    try {
        if (ext == ".npy")
            x = readNpy(path);
        else if (ext == ".json")
            x = readJsonTensor(path);
        else if (ext == ".csv")
            x = readCsv(path).values;
        else
            throw UserError("embeddings",
                            {{"%1: ", {name}},
                             ext.empty() ? MessagePart{"embeddings must be a .npy, .json or .csv "
                                                       "file, not '(no extension)'",
                                                       {}}
                                         : MessagePart{"embeddings must be a .npy, .json or .csv "
                                                       "file, not '%1'",
                                                       {ext}}});
    } catch (const UserError& e) {
        if (e.field() == "embeddings")
            throw;
        throw UserError("embeddings", e);
    }
    if (x.dim() != 2 && x.dim() != 3)
        throw UserError("embeddings", name +
                                          ": the embeddings must be a (T, d_in) or (b, T, d_in) "
                                          "matrix, but the file holds shape " +
                                          shapeToString(x.shape()));
    if (x.numel() == 0)
        throw UserError("embeddings", name + ": the embeddings are empty (shape " +
                                          shapeToString(x.shape()) +
                                          "); at least one token with one number is needed");
    const Tensor c = x.contiguous();
    const float* p = c.data();
    for (int64_t i = 0; i < c.numel(); ++i)
        if (!std::isfinite(p[i]))
            throw UserError("embeddings", name + ": element " + indexText(c.shape(), i) + " is " +
                                              formatFloat(p[i]) +
                                              "; embeddings must be finite numbers");
    return x;
}

WeightMap readWeightsFile(const std::string& path) {
    const std::string name = fileDisplayName(path);
    const std::string ext = fileExtension(path);
    try {
        if (ext == ".json")
            return readJsonWeights(path);
        if (ext == ".safetensors")
            return readSafetensors(path).tensors;
        throw UserError(
            "weights",
            {{"%1: ", {name}},
             ext.empty()
                 ? MessagePart{"weights must be a .json or .safetensors file, not '(no extension)'",
                               {}}
                 : MessagePart{"weights must be a .json or .safetensors file, not '%1'", {ext}}});
    } catch (const UserError& e) {
        if (e.field() == "weights")
            throw;
        throw UserError("weights", e);
    }
}

}  // namespace attn::io
