// torch.save files: the state_dict pickle reader (what it understands, every global it refuses by
// name, malformed pickles), the archive around it (records, storages, byte order, ZIP64, the
// legacy format) and tensors laid out in their storages, each refusal by its exact message.

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "io/model_file.h"
#include "io/stored_tensor.h"
#include "io/torch_file.h"
#include "io/torch_pickle.h"
#include "io/zip.h"
#include "io_test_util.h"
#include "model_test_util.h"

#ifndef ATTN_FIXTURES_DIR
#error "ATTN_FIXTURES_DIR must point at tests/fixtures"
#endif

namespace attn::io {
namespace {

using namespace std::string_literals;
using test::appendLe;
using test::expectError;
using test::PickleWriter;

std::string floats(const std::vector<float>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
}

// An archive as torch.save lays it out: <name>/data.pkl, <name>/data/<key>, <name>/version.
std::string archive(const std::string& pickle,
                    const std::vector<std::pair<std::string, std::string>>& storages,
                    const std::string& name = "model") {
    ZipWriter zip;
    zip.add(name + "/data.pkl", pickle);
    for (const auto& [key, bytes] : storages)
        zip.add(name + "/data/" + key, bytes);
    zip.add(name + "/version", "3\n");
    return zip.finish();
}

TEST(StateDictPickle, ReadsWhatTorchSaveWrites) {
    const std::string pickle = test::stateDictPickle({
        {"a.weight", "0", 12, 2, {2, 3}, {3, 1}},
        {"a.bias", "0", 12, 0, {2}, {1}},
        {"b", "1", 4, 0, {2, 2}, {1, 2}, "HalfStorage"},
    });
    const PickledStateDict d = parseStateDictPickle(pickle, "p");
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0].first, "a.weight");
    EXPECT_EQ(d[0].second.storageKey, "0");
    EXPECT_EQ(d[0].second.dtype, "F32");
    EXPECT_EQ(d[0].second.storageElements, 12);
    EXPECT_EQ(d[0].second.offset, 2);
    EXPECT_EQ(d[0].second.shape, (Shape{2, 3}));
    EXPECT_EQ(d[0].second.strides, (std::vector<int64_t>{3, 1}));
    EXPECT_EQ(d[1].first, "a.bias");
    EXPECT_EQ(d[2].second.dtype, "F16");
    EXPECT_EQ(d[2].second.strides, (std::vector<int64_t>{1, 2}));

    // The same through protocol 4's opcodes: FRAME, SHORT_BINUNICODE, STACK_GLOBAL, MEMOIZE.
    std::string p4 = "\x80\x04\x95";
    appendLe<uint64_t>(p4, 0);
    auto shortStr = [&](const std::string& s) {
        p4 += '\x8c';
        p4 += static_cast<char>(s.size());
        p4 += s;
    };
    shortStr("collections");
    shortStr("OrderedDict");
    p4 += "\x93\x94)R\x94";
    p4 += "(";
    shortStr("w");
    shortStr("torch._utils");
    shortStr("_rebuild_tensor_v2");
    p4 += "\x93(";
    p4 += "(";
    shortStr("storage");
    shortStr("torch");
    shortStr("BFloat16Storage");
    p4 += "\x93";
    shortStr("7");
    shortStr("cpu");
    p4 += "K\x03tQK\x00K\x03\x85K\x01\x85\x89h\x00)RtRu."s;  // memo 0: OrderedDict for the hooks
    const PickledStateDict d4 = parseStateDictPickle(p4, "p4");
    ASSERT_EQ(d4.size(), 1u);
    EXPECT_EQ(d4[0].first, "w");
    EXPECT_EQ(d4[0].second.dtype, "BF16");
    EXPECT_EQ(d4[0].second.storageKey, "7");
    EXPECT_EQ(d4[0].second.shape, (Shape{3}));
}

TEST(StateDictPickle, TakesTheModelOutOfABookCheckpoint) {
    // {"model_state_dict": {...}, "optimizer_state_dict": {"lr": 0.001, "betas": (0.9, 0.999)}}
    PickleWriter p;
    p.op('}').mark().str("model_state_dict").orderedDict().mark().str("w");
    p.tensor("0", "FloatStorage", 2, 0, {2}, {1});
    p.op('u').str("optimizer_state_dict").op('}').mark().str("lr").op('G');
    p.raw(std::string("\x3f\x50\x62\x4d\xd2\xf1\xa9\xfc", 8)).str("betas").mark();
    p.op('G').raw(std::string("\x3f\xec\xcc\xcc\xcc\xcc\xcc\xcd", 8)).op('N').tuple();
    p.op('u').op('u');
    const PickledStateDict d = parseStateDictPickle(p.finish(), "ckpt");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].first, "w");
}

TEST(StateDictPickle, RefusesEveryOtherGlobalByName) {
    const std::string tail =
        ", which a weights file never needs; it is refused so that a file "
        "cannot run code";
    for (const auto& [module, name] :
         std::vector<std::pair<std::string, std::string>>{{"os", "system"},
                                                          {"builtins", "eval"},
                                                          {"__main__", "GPTModel"},
                                                          {"torch._utils", "_rebuild_parameter"},
                                                          {"collections", "OrderedDic"},
                                                          {"torch", "FloatStorage\x01"}}) {
        PickleWriter p;
        p.global(module, name).op(')').op('R');
        std::string shown = module + "." + name;
        if (shown.back() == '\x01') {
            shown.pop_back();
            shown += "\\x01";
        }
        expectError([&] { parseStateDictPickle(p.finish(), "evil.pth"); }, "file",
                    "evil.pth: the pickle refers to the Python global " + shown + tail);
    }
    // STACK_GLOBAL (protocol 4) builds the name from strings on the stack: refused the same.
    std::string p4 = "\x80\x04\x8c\x05posix\x8c\x06system\x93.";
    expectError([&] { parseStateDictPickle(p4, "evil.pth"); }, "file",
                "evil.pth: the pickle refers to the Python global posix.system" + tail);
    // Opcodes that build objects without a global are not read at all.
    expectError([&] { parseStateDictPickle("\x80\x02(ios\nsystem\n.", "evil.pth"); }, "file",
                "evil.pth: the pickle holds opcode 'i' (0x69) at byte 3, which a state_dict never "
                "needs; only tensors, dicts, tuples, lists, strings and numbers are read");
    expectError([&] { parseStateDictPickle("\x80\x02\x81.", "evil.pth"); }, "file",
                "evil.pth: the pickle holds opcode 0x81 at byte 2, which a state_dict never "
                "needs; only tensors, dicts, tuples, lists, strings and numbers are read");
}

TEST(StateDictPickle, RefusesMalformedPickles) {
    auto refuse = [](const std::string& pickle, const std::string& message) {
        expectError([&] { parseStateDictPickle(pickle, "m.pth"); }, "file", "m.pth: " + message);
    };
    const std::string good = test::stateDictPickle({{"w", "0", 2, 0, {2}, {1}}});
    refuse(good.substr(0, good.size() - 1),
           "the pickle ends in the middle of an instruction (at byte " +
               std::to_string(good.size() - 1) + "); the file is truncated or corrupt");
    refuse("\x80\x06.", "the pickle uses protocol 6; protocols up to 5 are understood");
    refuse("\x80\x02h\x05.",
           "the pickle refers to memo entry 5, which it never stored; the file "
           "is corrupt");
    refuse("\x80\x02.", "the pickle takes a value from an empty stack; the file is corrupt");
    refuse("\x80\x02t.",
           "the pickle closes a group it never opened (no MARK); the file is "
           "corrupt");
    refuse("\x80\x02].",
           "the pickle holds a list, not a state_dict (a dict of tensors); save "
           "model.state_dict()");
    refuse("\x80\x02}X\x01\x00\x00\x00wK\x01s."s,
           "the state_dict's entry w is an int, not a tensor");
    refuse("\x80\x02}K\x01K\x01s.", "the state_dict has a key that is an int, not a name");
    refuse(std::string("\x80\x02\x8a\x09") + std::string(9, '\x01') + ".",
           "the pickle holds a 9-byte integer; sizes and offsets fit in 8 bytes");
    refuse("\x80\x02X\x02\x00\x00\x00\xc3\x28."s,
           "the pickle holds a string that is not UTF-8 text; the file is corrupt");
    refuse(
        "\x80\x02K\x01K\x02"
        "a.",
        "the pickle appends to an int, not a list");
    refuse(
        "\x80\x02"
        "cos\nsys",
        "the pickle ends inside a global's name; the file is truncated or "
        "corrupt");

    PickleWriter twice;
    twice.orderedDict().mark().str("a").tensor("0", "FloatStorage", 2, 0, {2}, {1});
    twice.str("b").tensor("0", "HalfStorage", 2, 0, {2}, {1}).op('u');
    refuse(twice.finish(),
           "storage 0 is described twice with different types or sizes; the file is corrupt");

    PickleWriter args;
    args.global("torch._utils", "_rebuild_tensor_v2").mark().integer(1).tuple().op('R');
    refuse(args.finish(),
           "the pickle calls torch._utils._rebuild_tensor_v2 with 1 arguments; it takes 6 or 7");

    PickleWriter negative;
    negative.orderedDict().mark().str("w").tensor("0", "FloatStorage", 2, 0, {-2}, {1}).op('u');
    refuse(negative.finish(),
           "a tensor's size holds an int below 0; it must hold non-negative integers");

    PickleWriter rank;
    rank.orderedDict().mark().str("w").tensor("0", "FloatStorage", 2, 0, {2}, {1, 1}).op('u');
    refuse(rank.finish(), "a tensor has 1 sizes but 2 strides");

    PickleWriter storageCall;
    storageCall.global("torch", "FloatStorage").op(')').op('R');
    refuse(storageCall.finish(),
           "the pickle calls torch.FloatStorage to build a storage; a "
           "state_dict refers to storages only by persistent id");

    PickleWriter pid;
    pid.mark().str("module").integer(3).tuple().op('Q');
    refuse(pid.finish(),
           "the pickle has a persistent id that is not ('storage', "
           "torch.<Type>Storage, key, location, size); only tensor storages are "
           "read");

    PickleWriter odArgs;
    odArgs.global("collections", "OrderedDict").mark().integer(1).tuple().op('R');
    refuse(odArgs.finish(),
           "the pickle calls collections.OrderedDict with arguments; a "
           "state_dict is pickled as an empty OrderedDict filled afterwards");
}

TEST(TorchArchive, ReadsTensorsWhereTheirStoragesHoldThem) {
    // A transposed view saved as is (strides (1, 2)) and a slice at an offset.
    const std::string pickle = test::stateDictPickle({
        {"t", "0", 6, 0, {3, 2}, {1, 3}},
        {"s", "0", 6, 4, {2}, {1}},
        {"h", "1", 3, 1, {2}, {1}, "HalfStorage"},
    });
    std::string half;
    for (uint16_t v : {0x3C00, 0xC000, 0x3800})  // 1, -2, 0.5
        appendLe<uint16_t>(half, v);
    const std::string zip = archive(pickle, {{"0", floats({1, 2, 3, 4, 5, 6})}, {"1", half}});
    const StoredTensors st = readTorchArchive(sharedBytes(zip), "m.pth");
    ASSERT_EQ(st.tensors.size(), 3u);
    EXPECT_EQ(toFloat32(st.tensors[0].second).toVector(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ(toFloat32(st.tensors[1].second).toVector(), (std::vector<float>{5, 6}));
    EXPECT_EQ(toFloat32(st.tensors[2].second).toVector(), (std::vector<float>{-2, 0.5f}));
    EXPECT_TRUE(st.metadata.empty());
}

TEST(TorchArchive, RefusesWhatTorchSaveDidNotWrite) {
    auto refuse = [](const std::string& bytes, const std::string& message) {
        expectError([&] { readTorchArchive(sharedBytes(bytes), "m.pth"); }, "file",
                    "m.pth: " + message);
    };
    const std::string pickle = test::stateDictPickle({{"w", "0", 4, 0, {2, 2}, {2, 1}}});
    const std::string good = archive(pickle, {{"0", floats({1, 2, 3, 4})}});
    ASSERT_EQ(readTorchArchive(sharedBytes(good), "m.pth").tensors.size(), 1u);

    refuse(std::string("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.", 15),
           "this is a PyTorch file in the legacy format of PyTorch before 1.6, which is not "
           "read; save it again with a current torch.save, or use the model's .safetensors file");
    refuse(good.substr(0, good.size() - 30),
           "this is not a PyTorch (torch.save) file: its end-of-archive record is missing");
    {
        ZipWriter zip;
        zip.add("weights.npy", "x");
        refuse(zip.finish(),
               "the archive holds no <name>/data.pkl, so torch.save did not write "
               "it; save the state_dict with torch.save(model.state_dict(), path)");
    }
    refuse(archive(pickle, {}),
           "w is stored in model/data/0, which the archive lacks; the file "
           "is truncated or corrupt");
    refuse(archive(pickle, {{"0", floats({1, 2, 3})}}),
           "w: its storage model/data/0 should hold 4 elements of F32 but has only 12 bytes; the "
           "file is truncated or corrupt");
    refuse(archive(test::stateDictPickle({{"w", "0", 4, 1, {2, 2}, {2, 1}}}),
                   {{"0", floats({1, 2, 3, 4})}}),
           "w (shape (2, 2), offset 1) reaches past the end of its storage of 4 elements; the "
           "file is corrupt");
    {
        ZipWriter zip;
        zip.add("model/data.pkl", pickle);
        zip.add("model/byteorder", "big");
        zip.add("model/data/0", floats({1, 2, 3, 4}));
        refuse(zip.finish(),
               "the storages are stored big-endian; only little-endian files are "
               "read (save it again on a little-endian machine, e.g. any x86-64 or "
               "ARM computer)");
    }
    {
        std::string compressed = good;
        compressed[8] = 8;  // data.pkl is the first record: its local and central method
        compressed[compressed.find("PK\x01\x02") + 10] = 8;
        refuse(compressed,
               "entry model/data.pkl is compressed (ZIP method 8); torch.save never "
               "compresses its records, so the file was re-packed by another tool; "
               "save it again with torch.save");
    }
    {
        std::string flipped = good;
        flipped[30 + 14 + 5] ^= 0x40;  // a byte of data.pkl
        refuse(flipped, "entry model/data.pkl fails its CRC-32 check; the file is corrupt");
    }
    {
        ZipWriter zip;
        zip.add("a/data.pkl", pickle);
        zip.add("b/data.pkl", pickle);
        refuse(zip.finish(),
               "the archive holds two state_dict pickles (a/data.pkl and "
               "b/data.pkl); a torch.save file holds one");
    }
}

TEST(TorchArchive, LoadingAModelRefusesCodeByName) {
    PickleWriter p;
    p.global("os", "system").str("echo hacked").op('\x85').op('R');
    expectError([&] { loadDecoderModel(sharedBytes(archive(p.finish(), {})), "evil.bin"); },
                "model",
                "evil.bin: the pickle refers to the Python global os.system, which a weights "
                "file never needs; it is refused so that a file cannot run code");
}

// ZIP64, as torch.save writes files over 4 GiB: sizes and offsets in extra fields, a ZIP64 end
// record and its locator. Built by hand around small records.
std::string zip64(const std::vector<std::pair<std::string, std::string>>& records) {
    std::string out, central;
    for (const auto& [name, data] : records) {
        const uint64_t offset = out.size();
        appendLe<uint32_t>(out, 0x04034b50);
        for (uint16_t v : {45, 0, 0, 0, 0})
            appendLe<uint16_t>(out, v);
        appendLe<uint32_t>(out, crc32(data));
        appendLe<uint32_t>(out, 0xFFFFFFFFu);
        appendLe<uint32_t>(out, 0xFFFFFFFFu);
        appendLe<uint16_t>(out, static_cast<uint16_t>(name.size()));
        appendLe<uint16_t>(out, 20);
        out += name;
        appendLe<uint16_t>(out, 1);
        appendLe<uint16_t>(out, 16);
        appendLe<uint64_t>(out, data.size());
        appendLe<uint64_t>(out, data.size());
        out += data;
        appendLe<uint32_t>(central, 0x02014b50);
        for (uint16_t v : {45, 45, 0, 0, 0, 0})
            appendLe<uint16_t>(central, v);
        appendLe<uint32_t>(central, crc32(data));
        appendLe<uint32_t>(central, 0xFFFFFFFFu);
        appendLe<uint32_t>(central, 0xFFFFFFFFu);
        appendLe<uint16_t>(central, static_cast<uint16_t>(name.size()));
        for (uint16_t v : {28, 0, 0, 0})
            appendLe<uint16_t>(central, v);
        appendLe<uint32_t>(central, 0);
        appendLe<uint32_t>(central, 0xFFFFFFFFu);
        central += name;
        appendLe<uint16_t>(central, 1);
        appendLe<uint16_t>(central, 24);
        appendLe<uint64_t>(central, data.size());
        appendLe<uint64_t>(central, data.size());
        appendLe<uint64_t>(central, offset);
    }
    const uint64_t centralOffset = out.size();
    out += central;
    const uint64_t end64 = out.size();
    appendLe<uint32_t>(out, 0x06064b50);
    appendLe<uint64_t>(out, 44);
    for (uint16_t v : {45, 45})
        appendLe<uint16_t>(out, v);
    appendLe<uint32_t>(out, 0);
    appendLe<uint32_t>(out, 0);
    appendLe<uint64_t>(out, records.size());
    appendLe<uint64_t>(out, records.size());
    appendLe<uint64_t>(out, central.size());
    appendLe<uint64_t>(out, centralOffset);
    appendLe<uint32_t>(out, 0x07064b50);
    appendLe<uint32_t>(out, 0);
    appendLe<uint64_t>(out, end64);
    appendLe<uint32_t>(out, 1);
    appendLe<uint32_t>(out, 0x06054b50);
    for (uint16_t v : {0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF})
        appendLe<uint16_t>(out, v);
    appendLe<uint32_t>(out, 0xFFFFFFFFu);
    appendLe<uint32_t>(out, 0xFFFFFFFFu);
    appendLe<uint16_t>(out, 0);
    return out;
}

TEST(TorchArchive, ReadsZip64Archives) {
    const std::string pickle = test::stateDictPickle({{"w", "0", 3, 0, {3}, {1}}});
    const std::string bytes =
        zip64({{"big/data.pkl", pickle}, {"big/data/0", floats({7, 8, 9})}, {"big/version", "3"}});
    const StoredTensors st = readTorchArchive(sharedBytes(bytes), "big.pth");
    ASSERT_EQ(st.tensors.size(), 1u);
    EXPECT_EQ(toFloat32(st.tensors[0].second).toVector(), (std::vector<float>{7, 8, 9}));

    std::string broken = bytes;
    broken[broken.size() - 22 - 20] = 'X';  // the locator's signature
    expectError([&] { readTorchArchive(sharedBytes(broken), "big.pth"); }, "file",
                "big.pth: the archive's ZIP64 end locator is missing; the file is corrupt");
}

TEST(TorchArchive, TruncatedModelFilesAreRefused) {
    const std::string path = std::string(ATTN_FIXTURES_DIR) + "/models/hf_head.bin";
    const std::string whole = test::readRaw(path);
    ASSERT_GT(whole.size(), 1000u);
    expectError(
        [&] {
            loadDecoderModel(sharedBytes(whole.substr(0, whole.size() / 2)), "hf_head.bin",
                             ModelLoadOptions{.heads = 2, .cancel = nullptr, .progress = {}});
        },
        "model",
        "hf_head.bin: this is not a PyTorch (torch.save) file: its end-of-archive record is "
        "missing");
}

}  // namespace
}  // namespace attn::io
