#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/location.h"

namespace tjr::doc {

/// The value kinds of Kubernetes' unstructured data (JSON's, with integers
/// and floats kept apart as apimachinery's util/json does).
enum class Kind : std::uint8_t { kNull, kBool, kInt, kFloat, kString, kSequence, kMapping };

std::string_view KindName(Kind kind);

struct Field;
namespace detail {
struct Rep;
}

/// One value of a document tree, with the location it was read from.
///
/// Nodes have value semantics with copy-on-write sharing: copying a node (a
/// whole runtime template, say) is one reference-count increment, and a
/// mutation copies only the representations on the path it changes. Mapping
/// fields keep insertion order; lookups are linear, which is fastest for the
/// small maps Kubernetes objects are made of, until a large mapping has been
/// searched a few times: it then gets an index of its keys, so that merging,
/// copying or comparing a mapping of N keys costs O(N), not O(N²) (330,000
/// keys under a TrainJob's spec took 97 s to check). A handle is one
/// pointer and a representation 72 bytes: parsing speed is mostly memory
/// traffic.
class Node {
 public:
  Node() noexcept = default;  ///< null
  Node(const Node& other) noexcept : rep_(other.rep_) { Retain(); }
  Node(Node&& other) noexcept : rep_(other.rep_) { other.rep_ = nullptr; }
  Node& operator=(const Node& other) noexcept;
  Node& operator=(Node&& other) noexcept;
  ~Node() { Release(); }

  static Node Null(Location at = {});
  static Node Bool(bool value, Location at = {});
  /// `source_text` is the scalar as written ("0x1F", "1e3"); empty when made in code.
  static Node Int(std::int64_t value, Location at = {}, std::string source_text = {});
  static Node Float(double value, Location at = {}, std::string source_text = {});
  static Node String(std::string value, Location at = {});
  static Node Sequence(Location at = {});
  static Node Mapping(Location at = {});

  inline Kind kind() const;
  bool is_null() const { return kind() == Kind::kNull; }
  bool is_bool() const { return kind() == Kind::kBool; }
  bool is_int() const { return kind() == Kind::kInt; }
  bool is_float() const { return kind() == Kind::kFloat; }
  bool is_string() const { return kind() == Kind::kString; }
  bool is_sequence() const { return kind() == Kind::kSequence; }
  bool is_mapping() const { return kind() == Kind::kMapping; }
  bool is_scalar() const { return !is_sequence() && !is_mapping(); }

  inline const Location& location() const;
  void set_location(Location at);

  // Scalars. Calling the accessor of another kind is a programming error.
  bool bool_value() const;
  std::int64_t int_value() const;
  double float_value() const;
  const std::string& string_value() const;
  /// Numbers: the text as written; strings: the value; otherwise empty.
  const std::string& source_text() const;

  /// Items of a sequence or fields of a mapping; 0 for scalars.
  inline std::size_t size() const;
  bool empty() const { return size() == 0; }

  // Sequences.
  inline const std::vector<Node>& items() const;
  std::vector<Node>& mutable_items();
  const Node& operator[](std::size_t index) const { return items()[index]; }
  void push_back(Node item);

  // Mappings.
  inline const std::vector<Field>& fields() const;
  /// For changes the mapping's API does not make. Do not change keys or the
  /// list through the reference after a lookup on this node (Find, Set),
  /// which may index the keys again; values may change any time.
  std::vector<Field>& mutable_fields();
  inline const Node* Find(std::string_view key) const;
  Node* FindMutable(std::string_view key);
  /// Replaces the value of `key` in place, or appends it; returns the stored value.
  Node& Set(std::string key, Node value, Location key_location = {});
  /// Removes `key`; returns whether it was present.
  bool Erase(std::string_view key);

  /// True when both nodes share one representation (a cheap identity test).
  bool SharesRepresentationWith(const Node& other) const { return rep_ == other.rep_; }

 private:
  explicit Node(detail::Rep* rep) noexcept : rep_(rep) {}
  inline const Field* FindField(std::string_view key) const;
  const Field* FindLarge(std::string_view key) const;
  detail::Rep& Mutable();
  inline void Retain() const noexcept;
  inline void Release() noexcept;

  detail::Rep* rep_ = nullptr;
};

struct Field {
  std::string key;
  Node value;
  Location key_location;
};

namespace detail {

/// Mappings with at least this many fields are indexed once searched
/// kScansBeforeIndex times without an index.
inline constexpr std::size_t kIndexedFields = 32;
inline constexpr std::uint8_t kScansBeforeIndex = 4;

struct KeyIndex;  // node.cc

/// A mapping's fields and, once it is large and searched, the index of their
/// keys (the first field of a key wins, as a linear search finds it). The
/// index is made by a lookup, possibly on several threads at once (a
/// shared tree is read from many), kept up by Set, and dropped when the
/// fields are handed out for change (Node::mutable_fields). A copy has none.
struct MappingFields {
  MappingFields() = default;
  MappingFields(const MappingFields& other) : fields(other.fields) {}
  MappingFields(MappingFields&& other) noexcept
      : fields(std::move(other.fields)), index(other.index.exchange(nullptr)) {}
  MappingFields& operator=(const MappingFields&) = delete;
  ~MappingFields();

  std::vector<Field> fields;
  mutable std::atomic<KeyIndex*> index{nullptr};
};

/// The shared representation behind Node handles. Strings and number
/// source text use the string alternative, sequences and mappings theirs.
struct Rep {
  Rep() = default;
  Rep(const Rep& other)
      : kind(other.kind), location(other.location), scalar(other.scalar),
        payload(other.payload) {}
  Rep& operator=(const Rep&) = delete;

  // Representations come from per-thread slabs: a parse allocates millions
  // of them and general-purpose malloc was a fifth of the reading time.
  static void* operator new(std::size_t size);
  static void operator delete(void* block, std::size_t size) noexcept;

  std::atomic<std::uint32_t> refs{1};
  Kind kind = Kind::kNull;
  /// Lookups in a large mapping without an index (in the padding).
  mutable std::atomic<std::uint8_t> scans{0};
  Location location;
  union Scalar {
    bool b;
    std::int64_t i;
    double f;
  } scalar{};
  std::variant<std::string, std::vector<Node>, MappingFields> payload;
};

extern const Location kNoLocation;
extern const std::vector<Node> kNoItems;
extern const std::vector<Field> kNoFields;

}  // namespace detail

inline void Node::Retain() const noexcept {
  if (rep_ != nullptr) rep_->refs.fetch_add(1, std::memory_order_relaxed);
}

inline void Node::Release() noexcept {
  if (rep_ != nullptr && rep_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete rep_;
  rep_ = nullptr;
}

inline Node& Node::operator=(const Node& other) noexcept {
  if (rep_ != other.rep_) {
    other.Retain();
    Release();
    rep_ = other.rep_;
  }
  return *this;
}

inline Node& Node::operator=(Node&& other) noexcept {
  if (this != &other) {
    Release();
    rep_ = other.rep_;
    other.rep_ = nullptr;
  }
  return *this;
}

inline Kind Node::kind() const { return rep_ != nullptr ? rep_->kind : Kind::kNull; }

inline const Location& Node::location() const {
  return rep_ != nullptr ? rep_->location : detail::kNoLocation;
}

inline std::size_t Node::size() const {
  if (rep_ == nullptr) return 0;
  if (rep_->kind == Kind::kSequence) return std::get<1>(rep_->payload).size();
  if (rep_->kind == Kind::kMapping) return std::get<2>(rep_->payload).fields.size();
  return 0;
}

inline const std::vector<Node>& Node::items() const {
  return is_sequence() ? std::get<1>(rep_->payload) : detail::kNoItems;
}

inline const std::vector<Field>& Node::fields() const {
  return is_mapping() ? std::get<2>(rep_->payload).fields : detail::kNoFields;
}

inline const Field* Node::FindField(std::string_view key) const {
  const std::vector<Field>& all = fields();
  if (all.size() >= detail::kIndexedFields) return FindLarge(key);
  for (const Field& field : all) {
    if (field.key == key) return &field;
  }
  return nullptr;
}

inline const Node* Node::Find(std::string_view key) const {
  const Field* field = FindField(key);
  return field != nullptr ? &field->value : nullptr;
}

/// Data equality: kinds and scalar values exact, sequences ordered, mappings
/// unordered; locations and source text are ignored.
bool operator==(const Node& a, const Node& b);
inline bool operator!=(const Node& a, const Node& b) { return !(a == b); }

/// Counts the nodes of a tree (itself included).
std::size_t CountNodes(const Node& node);

}  // namespace tjr::doc
