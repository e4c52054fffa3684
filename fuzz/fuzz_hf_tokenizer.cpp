// fuzz_hf_tokenizer: HfTokenizer::fromJson on arbitrary bytes (a model folder's
// tokenizer.json), through io::loadTokenizer's contract: only std::invalid_argument may escape
// the reader (loadTokenizer turns it into UserError). A tokenizer that loads must encode any
// text (the input itself, and a few fixed strings) without throwing, every id inside its
// vocabulary, and token(id) must give each id's bytes.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz_common.h"
#include "tokenizer/hf_tokenizer.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string json(reinterpret_cast<const char*>(data), size);
    std::shared_ptr<const HfTokenizer> tok;
    try {
        tok = HfTokenizer::fromJson(json);
    } catch (const std::invalid_argument&) {
        return 0;
    } catch (const std::exception& e) {
        fuzz::fail("fromJson", std::string("unexpected exception: ") + e.what());
    }
    const std::string texts[] = {json.substr(0, 256), "The animal didn't cross the street",
                                 "  \n\t 日本語 🦀 <|endoftext|><bos>",
                                 std::string("\xff\xfe", 2), ""};
    for (const std::string& text : texts)
        for (bool special : {true, false}) {
            std::vector<Token> tokens;
            try {
                tokens = tok->encode(text, special);
            } catch (const std::exception& e) {
                fuzz::fail("encode", std::string("threw ") + e.what());
            }
            for (const Token& t : tokens) {
                fuzz::check(t.id >= 0 && t.id < tok->vocabSize(), "an id outside the vocabulary");
                fuzz::check(tok->token(t.id).bytes == t.bytes, "token(id) disagrees with encode");
            }
        }
    return 0;
}
