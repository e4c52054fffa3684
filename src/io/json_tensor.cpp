#include "io/json_tensor.h"

#include "engine/config.h"
#include "io/file_io.h"
#include "io/json_reader.h"

namespace attn::io {

Tensor parseJsonTensor(std::string_view text, const std::string& source) {
    JsonReader reader(text, source);
    const char first = reader.peek();
    if (first == '\0')
        throw UserError("file", {{"%1: ", {source}},
                                 {"the file is empty; expected nested arrays of numbers", {}}});
    Tensor result;
    if (first == '{') {
        // {"about": ..., "tokens": [...], "inputs": [[...]]}: take the one tensor member.
        reader.consume('{');
        bool found = false;
        if (!reader.consume('}')) {
            while (true) {
                std::string key = reader.parseString();
                reader.expect(':', "':' after an object key");
                if ((key == "embeddings" || key == "inputs") && !found) {
                    result = reader.parseTensor(key);
                    found = true;
                } else {
                    reader.parseValue(1);
                }
                if (reader.consume(','))
                    continue;
                reader.expect('}', "',' or '}' in an object");
                break;
            }
        }
        if (!found)
            throw UserError("file", source +
                                        ": the object has no \"embeddings\" or \"inputs\" member; "
                                        "expected nested arrays of numbers");
    } else {
        result = reader.parseTensor("element ");
    }
    reader.expectEnd();
    return result;
}

Tensor readJsonTensor(const std::string& path) {
    return parseJsonTensor(readFileBytes(path), fileDisplayName(path));
}

WeightMap parseJsonWeights(std::string_view text, const std::string& source) {
    JsonReader reader(text, source);
    const char first = reader.peek();
    if (first != '{') {
        if (first == '\0')
            throw UserError("file", source + ": the file is empty; expected an object of weights");
        reader.fail("expected an object {\"W_query.weight\": [[...]], ...} of weights");
    }
    reader.consume('{');
    WeightMap weights;
    if (reader.consume('}'))
        return weights;
    while (true) {
        reader.skipWhitespace();
        const size_t keyPos = reader.position();
        std::string name = reader.parseString();
        reader.expect(':', "':' after a weight name");
        if (weights.count(name))
            reader.failAt(keyPos, "the weight " + name + " appears twice");
        weights[name] = reader.parseTensor(name);
        if (reader.consume(','))
            continue;
        reader.expect('}', "',' or '}' after a weight");
        break;
    }
    reader.expectEnd();
    return weights;
}

WeightMap readJsonWeights(const std::string& path) {
    return parseJsonWeights(readFileBytes(path), fileDisplayName(path));
}

}  // namespace attn::io
