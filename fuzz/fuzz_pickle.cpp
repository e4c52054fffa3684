// fuzz_pickle: parseStateDictPickle on arbitrary bytes (the data.pkl of a torch.save file).
// Only attn::UserError may escape (a global other than a state_dict's is refused with one);
// nothing may run, loop without end or allocate without bound; every tensor it returns must be
// described consistently.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "io/stored_tensor.h"
#include "io/torch_pickle.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    io::PickledStateDict dict;
    if (!fuzz::expectOnlyUserError("parseStateDictPickle",
                                     [&] { dict = io::parseStateDictPickle(bytes, "fuzz.pkl"); }))
        return 0;
    for (const auto& [name, t] : dict) {
        fuzz::check(t.shape.size() == t.strides.size(), "parseStateDictPickle",
                    name + ": sizes and strides differ in number");
        for (size_t i = 0; i < t.shape.size(); ++i)
            fuzz::check(t.shape[i] >= 0 && t.strides[i] >= 0, "parseStateDictPickle",
                        name + ": a negative size or stride");
        fuzz::check(t.offset >= 0 && t.storageElements >= 0, "parseStateDictPickle",
                    name + ": a negative offset or storage size");
        fuzz::check(io::dtypeSize(t.dtype) > 0, "parseStateDictPickle",
                    name + ": unknown dtype " + t.dtype);
    }
    return 0;
}
