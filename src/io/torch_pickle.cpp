#include "io/torch_pickle.h"

#include <QUtf8StringView>

#include <bit>
#include <cstdio>
#include <map>
#include <optional>

#include "engine/config.h"
#include "io/little_endian.h"

namespace attn::io {

namespace {

// The globals a state_dict pickle names, and what each one is to this reader.
enum class GlobalRole { OrderedDict, RebuildTensor, Storage };
struct KnownGlobal {
    const char* name;
    GlobalRole role;
    const char* dtype;  // storages only, safetensors spelling
};
constexpr KnownGlobal kKnownGlobals[] = {
    {"collections.OrderedDict", GlobalRole::OrderedDict, ""},
    {"torch._utils._rebuild_tensor_v2", GlobalRole::RebuildTensor, ""},
    {"torch.FloatStorage", GlobalRole::Storage, "F32"},
    {"torch.HalfStorage", GlobalRole::Storage, "F16"},
    {"torch.BFloat16Storage", GlobalRole::Storage, "BF16"},
    // Other element types are read so that buffers a model does not use (Hugging Face's bool
    // attn.bias) load; a weight of such a type is refused by the model reader, naming it.
    {"torch.DoubleStorage", GlobalRole::Storage, "F64"},
    {"torch.LongStorage", GlobalRole::Storage, "I64"},
    {"torch.IntStorage", GlobalRole::Storage, "I32"},
    {"torch.ShortStorage", GlobalRole::Storage, "I16"},
    {"torch.CharStorage", GlobalRole::Storage, "I8"},
    {"torch.ByteStorage", GlobalRole::Storage, "U8"},
    {"torch.BoolStorage", GlobalRole::Storage, "BOOL"},
};

enum class Kind { None, Bool, Int, Float, String, Tuple, List, Dict, Global, Storage, Tensor };

const char* kindName(Kind k) {
    switch (k) {
        case Kind::None:
            return "None";
        case Kind::Bool:
            return "a bool";
        case Kind::Int:
            return "an int";
        case Kind::Float:
            return "a float";
        case Kind::String:
            return "a string";
        case Kind::Tuple:
            return "a tuple";
        case Kind::List:
            return "a list";
        case Kind::Dict:
            return "a dict";
        case Kind::Global:
            return "a Python global";
        case Kind::Storage:
            return "a storage";
        case Kind::Tensor:
            return "a tensor";
    }
    return "?";
}

// Values live in one arena and refer to each other by index: the file can make a list contain
// itself (through the memo), which shared ownership would leak and a recursive destructor would
// overflow on; indices make both harmless. Nothing here walks values recursively.
struct Value {
    Kind kind = Kind::None;
    int64_t integer = 0;  // Bool, Int; the index into storages_/tensors_ for Storage and Tensor
    double real = 0.0;
    std::string text;                              // String; "module.name" for Global
    std::vector<size_t> items;                     // Tuple, List
    std::vector<std::pair<size_t, size_t>> pairs;  // Dict
    const KnownGlobal* global = nullptr;
};

struct StorageInfo {
    std::string key;
    std::string dtype;
    int64_t elements = 0;
};

// Escapes what is not printable ASCII, so a name from the file can be quoted in a message.
std::string printable(std::string_view s) {
    std::string out;
    for (unsigned char c : s.substr(0, 200)) {
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    if (s.size() > 200)
        out += "...";
    return out;
}

class Unpickler {
  public:
    Unpickler(std::string_view data, const std::string& source) : d_(data), source_(source) {}

    PickledStateDict run() {
        size_t result = 0;
        bool stopped = false;
        while (!stopped) {
            const size_t at = pos_;
            const unsigned char op = byte();
            switch (op) {
                case 0x80: {  // PROTO
                    const unsigned version = byte();
                    if (version > 5)
                        fail("the pickle uses protocol " + std::to_string(version) +
                             "; protocols up to 5 are understood");
                    break;
                }
                case 0x95:  // FRAME: a length hint for buffered readers
                    take(8);
                    break;
                case 'c': {  // GLOBAL
                    std::string module = line();
                    std::string name = line();
                    pushGlobal(module, name);
                    break;
                }
                case 0x93: {  // STACK_GLOBAL
                    const size_t name = pop(), module = pop();
                    if (v(module).kind != Kind::String || v(name).kind != Kind::String)
                        fail("STACK_GLOBAL needs two strings");
                    pushGlobal(v(module).text, v(name).text);
                    break;
                }
                case 'q':  // BINPUT
                    memoize(byte());
                    break;
                case 'r':  // LONG_BINPUT
                    memoize(loadLe<uint32_t>(take(4)));
                    break;
                case 0x94:  // MEMOIZE
                    memoize(memo_.size());
                    break;
                case 'h':  // BINGET
                    recall(byte());
                    break;
                case 'j':  // LONG_BINGET
                    recall(loadLe<uint32_t>(take(4)));
                    break;
                case '(':  // MARK
                    marks_.push_back(stack_.size());
                    break;
                case ')':  // EMPTY_TUPLE
                    push(make(Kind::Tuple));
                    break;
                case ']':  // EMPTY_LIST
                    push(make(Kind::List));
                    break;
                case '}':  // EMPTY_DICT
                    push(make(Kind::Dict));
                    break;
                case 't':    // TUPLE
                case 'l': {  // LIST
                    const size_t t = make(op == 't' ? Kind::Tuple : Kind::List);
                    v(t).items = popToMark();
                    push(t);
                    break;
                }
                case 0x85:    // TUPLE1
                case 0x86:    // TUPLE2
                case 0x87: {  // TUPLE3
                    const size_t n = op - 0x84u;
                    if (stack_.size() < floor() + n)
                        fail("a tuple needs more values than the stack holds");
                    const size_t t = make(Kind::Tuple);
                    v(t).items.assign(stack_.end() - static_cast<ptrdiff_t>(n), stack_.end());
                    stack_.resize(stack_.size() - n);
                    push(t);
                    break;
                }
                case 'a': {  // APPEND
                    const size_t item = pop();
                    list(top()).items.push_back(item);
                    break;
                }
                case 'e': {  // APPENDS
                    std::vector<size_t> items = popToMark();
                    Value& l = list(top());
                    l.items.insert(l.items.end(), items.begin(), items.end());
                    break;
                }
                case 'd': {  // DICT
                    const std::vector<size_t> items = popToMark();
                    const size_t dict = make(Kind::Dict);
                    addPairs(dict, items);
                    push(dict);
                    break;
                }
                case 's': {  // SETITEM
                    const size_t value = pop(), key = pop();
                    addPairs(top(), {key, value});
                    break;
                }
                case 'u': {  // SETITEMS
                    const std::vector<size_t> items = popToMark();
                    addPairs(top(), items);
                    break;
                }
                case 'X':  // BINUNICODE
                    pushString(loadLe<uint32_t>(take(4)));
                    break;
                case 0x8c:  // SHORT_BINUNICODE
                    pushString(byte());
                    break;
                case 0x8d:  // BINUNICODE8
                    pushString(loadLe<uint64_t>(take(8)));
                    break;
                case 'J':  // BININT
                    pushInt(loadLe<int32_t>(take(4)));
                    break;
                case 'K':  // BININT1
                    pushInt(byte());
                    break;
                case 'M':  // BININT2
                    pushInt(loadLe<uint16_t>(take(2)));
                    break;
                case 0x8a:  // LONG1
                    pushLong(byte());
                    break;
                case 0x8b:  // LONG4
                    pushLong(loadLe<uint32_t>(take(4)));
                    break;
                case 'G': {  // BINFLOAT: big-endian double
                    const uint64_t bits = __builtin_bswap64(loadLe<uint64_t>(take(8)));
                    const size_t f = make(Kind::Float);
                    v(f).real = std::bit_cast<double>(bits);
                    push(f);
                    break;
                }
                case 'N':  // NONE
                    push(make(Kind::None));
                    break;
                case 0x88:    // NEWTRUE
                case 0x89: {  // NEWFALSE
                    const size_t b = make(Kind::Bool);
                    v(b).integer = op == 0x88;
                    push(b);
                    break;
                }
                case '0':  // POP
                    pop();
                    break;
                case '1':  // POP_MARK
                    popToMark();
                    break;
                case '2':  // DUP
                    push(top());
                    break;
                case 'Q':  // BINPERSID
                    persistentLoad(pop());
                    break;
                case 'R':  // REDUCE
                    reduce();
                    break;
                case 'b':  // BUILD
                    build();
                    break;
                case '.':  // STOP
                    result = pop();
                    stopped = true;
                    break;
                default:
                    fail("the pickle holds opcode " + opcodeText(op) + " at byte " +
                         std::to_string(at) +
                         ", which a state_dict never needs; only tensors, dicts, tuples, lists, "
                         "strings and numbers are read");
            }
        }
        return stateDict(result);
    }

  private:
    [[noreturn]] void fail(const std::string& message) const {
        throw UserError("file", source_ + ": " + message);
    }

    static std::string opcodeText(unsigned char op) {
        char buf[16];
        if (op >= 0x20 && op < 0x7F)
            std::snprintf(buf, sizeof buf, "'%c' (0x%02x)", op, op);
        else
            std::snprintf(buf, sizeof buf, "0x%02x", op);
        return buf;
    }

    const char* take(uint64_t n) {
        if (n > d_.size() - pos_)
            fail("the pickle ends in the middle of an instruction (at byte " +
                 std::to_string(d_.size()) + "); the file is truncated or corrupt");
        const char* p = d_.data() + pos_;
        pos_ += static_cast<size_t>(n);
        return p;
    }
    unsigned char byte() { return static_cast<unsigned char>(*take(1)); }
    std::string line() {
        const size_t end = d_.find('\n', pos_);
        if (end == std::string_view::npos)
            fail("the pickle ends inside a global's name; the file is truncated or corrupt");
        std::string s(d_.substr(pos_, end - pos_));
        pos_ = end + 1;
        return s;
    }

    Value& v(size_t i) { return values_[i]; }
    size_t make(Kind k) {
        values_.emplace_back();
        values_.back().kind = k;
        return values_.size() - 1;
    }
    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    void push(size_t i) { stack_.push_back(i); }
    size_t pop() {
        if (stack_.size() <= floor())
            fail("the pickle takes a value from an empty stack; the file is corrupt");
        const size_t i = stack_.back();
        stack_.pop_back();
        return i;
    }
    size_t top() {
        if (stack_.size() <= floor())
            fail("the pickle uses a value from an empty stack; the file is corrupt");
        return stack_.back();
    }
    std::vector<size_t> popToMark() {
        if (marks_.empty())
            fail("the pickle closes a group it never opened (no MARK); the file is corrupt");
        const size_t mark = marks_.back();
        marks_.pop_back();
        std::vector<size_t> items(stack_.begin() + static_cast<ptrdiff_t>(mark), stack_.end());
        stack_.resize(mark);
        return items;
    }
    Value& list(size_t i) {
        if (v(i).kind != Kind::List)
            fail(std::string("the pickle appends to ") + kindName(v(i).kind) + ", not a list");
        return v(i);
    }
    void addPairs(size_t dict, const std::vector<size_t>& items) {
        if (v(dict).kind != Kind::Dict)
            fail(std::string("the pickle sets an item of ") + kindName(v(dict).kind) +
                 ", not a dict");
        if (items.size() % 2)
            fail("the pickle gives a dict a key without a value");
        for (size_t k = 0; k < items.size(); k += 2)
            v(dict).pairs.emplace_back(items[k], items[k + 1]);
    }
    void memoize(uint64_t index) { memo_[index] = top(); }
    void recall(uint64_t index) {
        auto it = memo_.find(index);
        if (it == memo_.end())
            fail("the pickle refers to memo entry " + std::to_string(index) +
                 ", which it never stored; the file is corrupt");
        push(it->second);
    }

    void pushString(uint64_t length) {
        const char* p = take(length);
        std::string s(p, static_cast<size_t>(length));
        if (!QUtf8StringView(s).isValidUtf8())
            fail("the pickle holds a string that is not UTF-8 text; the file is corrupt");
        const size_t i = make(Kind::String);
        v(i).text = std::move(s);
        push(i);
    }
    void pushInt(int64_t value) {
        const size_t i = make(Kind::Int);
        v(i).integer = value;
        push(i);
    }
    // LONG1 / LONG4: little-endian two's complement of n bytes. Sizes and offsets never need
    // more than 8.
    void pushLong(uint64_t n) {
        if (n > 8)
            fail("the pickle holds a " + std::to_string(n) +
                 "-byte integer; sizes and offsets fit in 8 bytes");
        const char* p = take(n);
        uint64_t bits = 0;
        for (uint64_t k = 0; k < n; ++k)
            bits |= uint64_t(static_cast<unsigned char>(p[k])) << (8 * k);
        if (n > 0 && n < 8 && (static_cast<unsigned char>(p[n - 1]) & 0x80))
            bits |= ~uint64_t(0) << (8 * n);  // sign-extend
        pushInt(static_cast<int64_t>(bits));
    }

    void pushGlobal(const std::string& module, const std::string& name) {
        const std::string full = module + "." + name;
        for (const KnownGlobal& g : kKnownGlobals)
            if (full == g.name) {
                const size_t i = make(Kind::Global);
                v(i).text = full;
                v(i).global = &g;
                push(i);
                return;
            }
        fail("the pickle refers to the Python global " + printable(full) +
             ", which a weights file never needs; it is refused so that a file cannot run code");
    }

    // ('storage', torch.FloatStorage, '0', 'cpu', numel): a storage saved as record data/0.
    void persistentLoad(size_t pid) {
        const Value& t = v(pid);
        const bool shaped = t.kind == Kind::Tuple && t.items.size() == 5 &&
                            v(t.items[0]).kind == Kind::String && v(t.items[0]).text == "storage" &&
                            v(t.items[1]).kind == Kind::Global &&
                            v(t.items[2]).kind == Kind::String &&
                            v(t.items[3]).kind == Kind::String && v(t.items[4]).kind == Kind::Int;
        if (!shaped)
            fail(
                "the pickle has a persistent id that is not ('storage', torch.<Type>Storage, "
                "key, location, size); only tensor storages are read");
        const KnownGlobal* type = v(t.items[1]).global;
        if (type->role != GlobalRole::Storage)
            fail("the pickle's storage has type " + v(t.items[1]).text +
                 ", which is not a torch storage type");
        StorageInfo info{v(t.items[2]).text, type->dtype, v(t.items[4]).integer};
        if (info.elements < 0)
            fail("storage " + printable(info.key) + " has a negative size");
        auto [it, fresh] = storageByKey_.emplace(info.key, storages_.size());
        if (fresh) {
            storages_.push_back(info);
        } else {
            const StorageInfo& seen = storages_[it->second];
            if (seen.dtype != info.dtype || seen.elements != info.elements)
                fail("storage " + printable(info.key) +
                     " is described twice with different types or sizes; the file is corrupt");
        }
        const size_t s = make(Kind::Storage);
        v(s).integer = static_cast<int64_t>(it->second);
        push(s);
    }

    std::vector<int64_t> intTuple(size_t i, const char* what) {
        const Value& t = v(i);
        if (t.kind != Kind::Tuple)
            fail(std::string("a tensor's ") + what + " is " + kindName(t.kind) + ", not a tuple");
        std::vector<int64_t> out;
        for (size_t item : t.items) {
            if (v(item).kind != Kind::Int || v(item).integer < 0)
                fail(std::string("a tensor's ") + what + " holds " + kindName(v(item).kind) +
                     (v(item).kind == Kind::Int ? " below 0" : "") +
                     "; it must hold non-negative integers");
            out.push_back(v(item).integer);
        }
        return out;
    }

    void reduce() {
        const size_t args = pop(), callable = pop();
        if (v(callable).kind != Kind::Global)
            fail(std::string("the pickle calls ") + kindName(v(callable).kind) +
                 ", which is not a function");
        if (v(args).kind != Kind::Tuple)
            fail("the pickle calls " + v(callable).text + " with " + kindName(v(args).kind) +
                 " instead of an argument tuple");
        const std::vector<size_t> a = v(args).items;
        switch (v(callable).global->role) {
            case GlobalRole::OrderedDict:
                // OrderedDict() is pickled empty; its items follow with SETITEMS.
                if (!a.empty())
                    fail(
                        "the pickle calls collections.OrderedDict with arguments; a state_dict "
                        "is pickled as an empty OrderedDict filled afterwards");
                push(make(Kind::Dict));
                return;
            case GlobalRole::RebuildTensor:
                rebuildTensor(a);
                return;
            case GlobalRole::Storage:
                break;
        }
        fail("the pickle calls " + v(callable).text +
             " to build a storage; a state_dict refers to storages only by persistent id");
    }

    // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks)
    // and, from PyTorch 2, an optional seventh `metadata` (None or a dict, ignored).
    void rebuildTensor(const std::vector<size_t>& a) {
        if (a.size() != 6 && a.size() != 7)
            fail("the pickle calls torch._utils._rebuild_tensor_v2 with " +
                 std::to_string(a.size()) + " arguments; it takes 6 or 7");
        if (v(a[0]).kind != Kind::Storage)
            fail(std::string("a tensor's storage is ") + kindName(v(a[0]).kind) +
                 ", not a storage");
        if (v(a[1]).kind != Kind::Int || v(a[1]).integer < 0)
            fail("a tensor's storage offset is not a non-negative integer");
        if (v(a[4]).kind != Kind::Bool)
            fail("a tensor's requires_grad is not a bool");
        if (v(a[5]).kind != Kind::Dict)
            fail("a tensor's backward hooks are not an OrderedDict");
        if (a.size() == 7 && v(a[6]).kind != Kind::Dict && v(a[6]).kind != Kind::None)
            fail("a tensor's metadata is neither None nor a dict");
        const StorageInfo& s = storages_[static_cast<size_t>(v(a[0]).integer)];
        PickledTensor t;
        t.storageKey = s.key;
        t.dtype = s.dtype;
        t.storageElements = s.elements;
        t.offset = v(a[1]).integer;
        t.shape = intTuple(a[2], "size");
        t.strides = intTuple(a[3], "stride");
        if (t.strides.size() != t.shape.size())
            fail("a tensor has " + std::to_string(t.shape.size()) + " sizes but " +
                 std::to_string(t.strides.size()) + " strides");
        const size_t i = make(Kind::Tensor);
        v(i).integer = static_cast<int64_t>(tensors_.size());
        tensors_.push_back(std::move(t));
        push(i);
    }

    // OrderedDict's state is its instance dict ({"_metadata": ...} for a state_dict): ignored.
    void build() {
        const size_t state = pop();
        const size_t object = top();
        if (v(object).kind != Kind::Dict)
            fail(std::string("the pickle sets the state of ") + kindName(v(object).kind) +
                 ", which a state_dict never does");
        if (v(state).kind != Kind::Dict && v(state).kind != Kind::None)
            fail(std::string("the pickle gives a dict a state that is ") + kindName(v(state).kind));
    }

    PickledStateDict stateDict(size_t root) {
        if (v(root).kind != Kind::Dict)
            fail(std::string("the pickle holds ") + kindName(v(root).kind) +
                 ", not a state_dict (a dict of tensors); save model.state_dict()");
        size_t dict = root;
        bool anyTensor = false;
        for (const auto& [k, value] : v(root).pairs)
            anyTensor = anyTensor || v(value).kind == Kind::Tensor;
        if (!anyTensor) {
            for (const char* key : {"model_state_dict", "state_dict", "model"})
                for (const auto& [k, value] : v(root).pairs)
                    if (dict == root && v(k).kind == Kind::String && v(k).text == key &&
                        v(value).kind == Kind::Dict)
                        dict = value;
        }
        PickledStateDict out;
        for (const auto& [k, value] : v(dict).pairs) {
            if (v(k).kind != Kind::String)
                fail(std::string("the state_dict has a key that is ") + kindName(v(k).kind) +
                     ", not a name");
            if (v(value).kind != Kind::Tensor)
                fail("the state_dict's entry " + printable(v(k).text) + " is " +
                     kindName(v(value).kind) + ", not a tensor");
            out.emplace_back(v(k).text, tensors_[static_cast<size_t>(v(value).integer)]);
        }
        return out;
    }

    std::string_view d_;
    const std::string& source_;
    size_t pos_ = 0;
    std::vector<Value> values_;
    std::vector<size_t> stack_;
    std::vector<size_t> marks_;
    std::map<uint64_t, size_t> memo_;
    std::vector<StorageInfo> storages_;
    std::map<std::string, size_t> storageByKey_;
    std::vector<PickledTensor> tensors_;
};

}  // namespace

PickledStateDict parseStateDictPickle(std::string_view pickle, const std::string& source) {
    return Unpickler(pickle, source).run();
}

}  // namespace attn::io
