#include "doc/node.h"

#include <cassert>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace tjr::doc {
namespace detail {

const Location kNoLocation{};
const std::vector<Node> kNoItems;
const std::vector<Field> kNoFields;

namespace {

// A free list per thread, refilled from 64 KiB slabs that are never given
// back. A block freed on another thread joins that thread's list; a thread
// that has freed many blocks hands them to a shared pile, where the threads
// that allocate (parsers, renderers) pick them up before they cut a new
// slab: nodes made on workers and dropped on the thread that collects their
// results would otherwise never be used again. The process-lifetime slabs
// suit a command-line tool; peak memory is the peak number of live nodes.
struct FreeBlock {
  FreeBlock* next;
};

constexpr std::size_t kSlabBytes = std::size_t{64} << 10;
constexpr std::size_t kSpillBlocks = 4096;  // about 300 KB of nodes
thread_local FreeBlock* free_blocks = nullptr;
thread_local std::size_t freed_since_spill = 0;

struct Pile {
  std::mutex mutex;
  std::vector<FreeBlock*> lists;
};

// Made on first use (nodes exist during static initialisation) and never
// destroyed (nodes may be freed during static destruction).
Pile& SharedPile() {
  static Pile* pile = new Pile();
  return *pile;
}

// A thread's free blocks go to the pile when the thread ends: they would
// otherwise be lost with it (a leak LeakSanitizer reports, and blocks no
// other thread could use). Made when a thread first refills its list or
// frees into an empty one.
struct ThreadExit {
  ~ThreadExit() {
    if (free_blocks == nullptr) return;
    Pile& pile = SharedPile();
    std::lock_guard lock(pile.mutex);
    pile.lists.push_back(free_blocks);
    free_blocks = nullptr;
  }
};
thread_local ThreadExit thread_exit;

void Refill() {
  static_cast<void>(&thread_exit);  // registers the thread's exit handler
  {
    Pile& pile = SharedPile();
    std::lock_guard lock(pile.mutex);
    if (!pile.lists.empty()) {
      free_blocks = pile.lists.back();
      pile.lists.pop_back();
      return;
    }
  }
  constexpr std::size_t kBlock = sizeof(Rep);
  char* slab = static_cast<char*>(::operator new(kSlabBytes));
  for (std::size_t offset = 0; offset + kBlock <= kSlabBytes; offset += kBlock) {
    auto* block = reinterpret_cast<FreeBlock*>(slab + offset);
    block->next = free_blocks;
    free_blocks = block;
  }
}

}  // namespace

void* Rep::operator new(std::size_t size) {
  if (size != sizeof(Rep)) return ::operator new(size);
  if (free_blocks == nullptr) Refill();
  FreeBlock* block = free_blocks;
  free_blocks = block->next;
  return block;
}

void Rep::operator delete(void* block, std::size_t size) noexcept {
  if (block == nullptr) return;
  if (size != sizeof(Rep)) {
    ::operator delete(block);
    return;
  }
  auto* free_block = static_cast<FreeBlock*>(block);
  // A thread that frees into an empty list may never have refilled.
  if (free_blocks == nullptr) static_cast<void>(&thread_exit);
  free_block->next = free_blocks;
  free_blocks = free_block;
  if (++freed_since_spill < kSpillBlocks) return;
  freed_since_spill = 0;
  Pile& pile = SharedPile();
  std::lock_guard lock(pile.mutex);
  pile.lists.push_back(free_blocks);
  free_blocks = nullptr;
}

// Open addressing over field positions: slots hold position + 1 (0 is
// empty), at most half of them used, so a probe ends soon.
struct KeyIndex {
  std::vector<std::uint32_t> slots;

  static std::size_t Hash(std::string_view key) { return std::hash<std::string_view>()(key); }

  explicit KeyIndex(const std::vector<Field>& fields) {
    std::size_t capacity = 64;
    while (capacity < 2 * fields.size() + 2) capacity *= 2;
    slots.assign(capacity, 0);
    for (std::size_t i = 0; i < fields.size(); ++i) Add(fields, i);
  }

  // The slot of `key`: its field's, or the empty one where it would go.
  std::uint32_t& Slot(const std::vector<Field>& fields, std::string_view key) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t at = Hash(key) & mask;; at = (at + 1) & mask) {
      if (slots[at] == 0 || fields[slots[at] - 1].key == key) return slots[at];
    }
  }

  const Field* Find(const std::vector<Field>& fields, std::string_view key) const {
    const std::uint32_t slot = const_cast<KeyIndex*>(this)->Slot(fields, key);
    return slot != 0 ? &fields[slot - 1] : nullptr;
  }

  // Files fields[position] unless an earlier field has its key.
  void Add(const std::vector<Field>& fields, std::size_t position) {
    if (2 * (position + 1) >= slots.size()) {  // keep at most half the slots used
      std::vector<std::uint32_t> old = std::move(slots);
      slots.assign(old.size() * 2, 0);
      for (std::uint32_t slot : old) {
        if (slot != 0) Slot(fields, fields[slot - 1].key) = slot;
      }
    }
    std::uint32_t& slot = Slot(fields, fields[position].key);
    if (slot == 0) slot = static_cast<std::uint32_t>(position + 1);
  }
};

MappingFields::~MappingFields() { delete index.load(std::memory_order_relaxed); }

}  // namespace detail

using detail::KeyIndex;
using detail::MappingFields;
using detail::Rep;

namespace {

const std::string kEmptyString;

Rep* NewRep(Kind kind, Location at) {
  Rep* rep = new Rep();
  rep->kind = kind;
  rep->location = at;
  if (kind == Kind::kSequence) rep->payload.emplace<1>();
  if (kind == Kind::kMapping) rep->payload.emplace<2>();
  return rep;
}

}  // namespace

std::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull: return "null";
    case Kind::kBool: return "boolean";
    case Kind::kInt: return "integer";
    case Kind::kFloat: return "number";
    case Kind::kString: return "string";
    case Kind::kSequence: return "array";
    case Kind::kMapping: return "object";
  }
  return "unknown";
}

Node Node::Null(Location at) { return Node(NewRep(Kind::kNull, at)); }

Node Node::Bool(bool value, Location at) {
  Rep* rep = NewRep(Kind::kBool, at);
  rep->scalar.b = value;
  return Node(rep);
}

Node Node::Int(std::int64_t value, Location at, std::string source_text) {
  Rep* rep = NewRep(Kind::kInt, at);
  rep->scalar.i = value;
  rep->payload.emplace<0>(std::move(source_text));
  return Node(rep);
}

Node Node::Float(double value, Location at, std::string source_text) {
  Rep* rep = NewRep(Kind::kFloat, at);
  rep->scalar.f = value;
  rep->payload.emplace<0>(std::move(source_text));
  return Node(rep);
}

Node Node::String(std::string value, Location at) {
  Rep* rep = NewRep(Kind::kString, at);
  rep->payload.emplace<0>(std::move(value));
  return Node(rep);
}

Node Node::Sequence(Location at) { return Node(NewRep(Kind::kSequence, at)); }
Node Node::Mapping(Location at) { return Node(NewRep(Kind::kMapping, at)); }

void Node::set_location(Location at) { Mutable().location = at; }

Rep& Node::Mutable() {
  if (rep_ == nullptr) {
    rep_ = NewRep(Kind::kNull, {});
  } else if (rep_->refs.load(std::memory_order_acquire) > 1) {
    // Shallow copy: children are shared handles and detach on their own
    // mutation. A count of one means no other handle, on any thread, can
    // reach this representation, so changing it in place is safe.
    Rep* copy = new Rep(*rep_);
    Release();
    rep_ = copy;
  }
  return *rep_;
}

bool Node::bool_value() const {
  assert(is_bool());
  return rep_->scalar.b;
}

std::int64_t Node::int_value() const {
  assert(is_int());
  return rep_->scalar.i;
}

double Node::float_value() const {
  assert(is_float());
  return rep_->scalar.f;
}

const std::string& Node::string_value() const {
  assert(is_string());
  return std::get<0>(rep_->payload);
}

const std::string& Node::source_text() const {
  if (rep_ == nullptr) return kEmptyString;
  const std::string* text = std::get_if<0>(&rep_->payload);
  return text != nullptr ? *text : kEmptyString;
}

std::vector<Node>& Node::mutable_items() {
  assert(is_sequence());
  return std::get<1>(Mutable().payload);
}

void Node::push_back(Node item) { mutable_items().push_back(std::move(item)); }

std::vector<Field>& Node::mutable_fields() {
  assert(is_mapping());
  Rep& rep = Mutable();
  MappingFields& mapping = std::get<2>(rep.payload);
  // The caller may change keys: the index goes. No other handle reaches a
  // representation Mutable returns, so no lookup can be using it.
  delete mapping.index.exchange(nullptr, std::memory_order_relaxed);
  rep.scans.store(0, std::memory_order_relaxed);
  return mapping.fields;
}

const Field* Node::FindLarge(std::string_view key) const {
  const MappingFields& mapping = std::get<2>(rep_->payload);
  const KeyIndex* index = mapping.index.load(std::memory_order_acquire);
  if (index == nullptr) {
    if (rep_->scans.load(std::memory_order_relaxed) < detail::kScansBeforeIndex) {
      rep_->scans.fetch_add(1, std::memory_order_relaxed);
      for (const Field& field : mapping.fields) {
        if (field.key == key) return &field;
      }
      return nullptr;
    }
    // Threads that meet here each build one; the first stored is kept.
    KeyIndex* built = new KeyIndex(mapping.fields);
    KeyIndex* expected = nullptr;
    if (mapping.index.compare_exchange_strong(expected, built, std::memory_order_acq_rel)) {
      index = built;
    } else {
      delete built;
      index = expected;
    }
  }
  return index->Find(mapping.fields, key);
}

Node* Node::FindMutable(std::string_view key) {
  const Field* found = FindField(key);
  if (found == nullptr) return nullptr;
  // By position, which a copy made for the change shares. A value
  // changes, no key: the index stays.
  const std::size_t position = static_cast<std::size_t>(found - fields().data());
  return &std::get<2>(Mutable().payload).fields[position].value;
}

Node& Node::Set(std::string key, Node value, Location key_location) {
  assert(is_mapping());
  if (Node* field = FindMutable(key)) {
    *field = std::move(value);
    return *field;
  }
  Rep& rep = Mutable();
  MappingFields& mapping = std::get<2>(rep.payload);
  mapping.fields.push_back(Field{std::move(key), std::move(value), key_location});
  // Unique here (Mutable), so the index is this thread's to change.
  if (KeyIndex* index = mapping.index.load(std::memory_order_relaxed)) {
    index->Add(mapping.fields, mapping.fields.size() - 1);
  }
  return mapping.fields.back().value;
}

bool Node::Erase(std::string_view key) {
  if (Find(key) == nullptr) return false;
  std::vector<Field>& all = mutable_fields();
  for (auto it = all.begin(); it != all.end(); ++it) {
    if (it->key == key) {
      all.erase(it);
      return true;
    }
  }
  return false;
}

bool operator==(const Node& a, const Node& b) {
  if (a.SharesRepresentationWith(b)) return true;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::kNull: return true;
    case Kind::kBool: return a.bool_value() == b.bool_value();
    case Kind::kInt: return a.int_value() == b.int_value();
    case Kind::kFloat: return a.float_value() == b.float_value();
    case Kind::kString: return a.string_value() == b.string_value();
    case Kind::kSequence: return a.items() == b.items();
    case Kind::kMapping: {
      if (a.size() != b.size()) return false;
      for (const Field& field : a.fields()) {
        const Node* other = b.Find(field.key);
        if (other == nullptr || !(field.value == *other)) return false;
      }
      return true;
    }
  }
  return false;
}

std::size_t CountNodes(const Node& node) {
  std::size_t count = 1;
  for (const Node& item : node.items()) count += CountNodes(item);
  for (const Field& field : node.fields()) count += CountNodes(field.value);
  return count;
}

}  // namespace tjr::doc
