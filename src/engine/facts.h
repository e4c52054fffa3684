#pragma once
// Facts about a run as data: a key and a value, in the order they are told. The library that
// knows a fact makes it (the settings table its settings, an architecture its features); a
// writer (the trace JSON's "config", the `model` JSON) only formats them, so a new setting or a
// new family needs no edit in any writer.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace attn {

// uint64_t holds seeds above 2^63 exactly; a list is whole numbers (a model's windows per layer).
using FactValue = std::variant<std::string, int64_t, uint64_t, double, bool, std::vector<int64_t>>;

struct Fact {
    std::string key;
    FactValue value;
    friend bool operator==(const Fact&, const Fact&) = default;
};
using Facts = std::vector<Fact>;

// The fact named `key`, or null.
inline const Fact* findFact(const Facts& facts, const std::string& key) {
    for (const Fact& f : facts)
        if (f.key == key)
            return &f;
    return nullptr;
}

}  // namespace attn
