// Corrupted files must give attn::UserError, never a crash, a hang or another exception.
// Deterministic mutations (fixed seed) of valid files of every format.

#include <gtest/gtest.h>

#include <random>

#include "io/csv.h"
#include "io/json_tensor.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

// Flips, overwrites, inserts and deletes a few bytes, or truncates.
std::string mutate(const std::string& original, std::mt19937& rng) {
    std::string s = original;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !s.empty(); ++k) {
        const size_t at = rng() % s.size();
        switch (rng() % 5) {
            case 0:
                s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
                break;
            case 1:
                s[at] = static_cast<char>(rng() % 256);
                break;
            case 2:
                s.insert(at, 1, "[]{},:\"0-e.\n\xff"[rng() % 13]);
                break;
            case 3:
                s.erase(at, 1 + rng() % 8);
                break;
            default:
                s.resize(at);
                break;
        }
    }
    return s;
}

template <typename Parse>
void survivesMutations(const std::string& valid, Parse parse) {
    std::mt19937 rng(20240611);
    int errors = 0;
    for (int i = 0; i < 3000; ++i) {
        const std::string bad = mutate(valid, rng);
        try {
            parse(bad);
        } catch (const UserError&) {
            ++errors;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "not an UserError: " << e.what();
            return;
        }
    }
    EXPECT_GT(errors, 100);  // the mutations do reach the checks
}

TEST(Robustness, Npy) {
    survivesMutations(npyBytes(Tensor({2, 3}, {1, 2, 3, 4, 5, 6})),
                      [](const std::string& b) { parseNpy(b, "x.npy"); });
}

TEST(Robustness, Npz) {
    const std::string zip = npzBytes({{"a", Tensor({2}, {1, 2})}, {"b", Tensor({1, 1}, {3})}});
    survivesMutations(zip, [](const std::string& b) { parseNpz(b, "x.npz"); });
}

TEST(Robustness, Safetensors) {
    WeightMap w;
    w["W_query.weight"] = Tensor({2, 3}, {1, 2, 3, 4, 5, 6});
    w["b"] = Tensor({2}, {7, 8});
    survivesMutations(safetensorsBytes(w, {{"format", "pt"}}),
                      [](const std::string& b) { parseSafetensors(b, "x.safetensors"); });
}

TEST(Robustness, Json) {
    survivesMutations(
        "{\"inputs\": [[0.43, 0.15, 0.89], [0.55, -1e-3, 66]], \"t\": [\"a\\u00e9\"]}",
        [](const std::string& b) { parseJsonTensor(b, "x.json"); });
    survivesMutations("{\"W_query.weight\": [[1, 2], [3, 4.5e1]], \"b\": [0]}",
                      [](const std::string& b) { parseJsonWeights(b, "x.json"); });
}

TEST(Robustness, Csv) {
    survivesMutations(",a,\"b,c\"\nYour,0.1,-2\n\" journey\",inf,1e-05\n",
                      [](const std::string& b) { parseCsv(b, "x.csv"); });
}

}  // namespace
}  // namespace attn::io
