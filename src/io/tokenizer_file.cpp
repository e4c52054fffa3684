#include "io/tokenizer_file.h"

#include <filesystem>
#include <stdexcept>

#include "engine/config.h"
#include "io/file_io.h"

namespace attn::io {

std::shared_ptr<const HfTokenizer> loadTokenizer(const std::string& path) {
    std::filesystem::path file(path);
    if (std::filesystem::is_directory(file)) {
        file /= "tokenizer.json";
        if (!std::filesystem::is_regular_file(file))
            throw UserError("tokenizer", {{"%1: ", {fileDisplayName(path)}},
                                          {"the folder has no tokenizer.json, where a Hugging "
                                           "Face model keeps its tokenizer",
                                           {}}});
    }
    std::string json;
    try {
        json = readFileBytes(file.string());
    } catch (const UserError& e) {
        throw UserError("tokenizer", e);
    }
    try {
        return HfTokenizer::fromJson(json);
    } catch (const TokenizerJsonError& e) {
        throw UserError("tokenizer",
                        {{"%1: ", {fileDisplayName(file.string())}}, {e.format(), e.args()}});
    }
}

}  // namespace attn::io
