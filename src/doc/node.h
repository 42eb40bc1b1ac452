#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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
/// small maps Kubernetes objects are made of.
class Node {
 public:
  Node();  ///< null
  static Node Null(Location at = {});
  static Node Bool(bool value, Location at = {});
  /// `source_text` is the scalar as written ("0x1F", "1e3"); empty when made in code.
  static Node Int(std::int64_t value, Location at = {}, std::string source_text = {});
  static Node Float(double value, Location at = {}, std::string source_text = {});
  static Node String(std::string value, Location at = {});
  static Node Sequence(Location at = {});
  static Node Mapping(Location at = {});

  Kind kind() const;
  bool is_null() const { return kind() == Kind::kNull; }
  bool is_bool() const { return kind() == Kind::kBool; }
  bool is_int() const { return kind() == Kind::kInt; }
  bool is_float() const { return kind() == Kind::kFloat; }
  bool is_string() const { return kind() == Kind::kString; }
  bool is_sequence() const { return kind() == Kind::kSequence; }
  bool is_mapping() const { return kind() == Kind::kMapping; }
  bool is_scalar() const { return !is_sequence() && !is_mapping(); }

  const Location& location() const;
  void set_location(Location at);

  // Scalars. Calling the accessor of another kind is a programming error.
  bool bool_value() const;
  std::int64_t int_value() const;
  double float_value() const;
  const std::string& string_value() const;
  /// Numbers: the text as written; strings: the value; otherwise empty.
  const std::string& source_text() const;

  /// Items of a sequence or fields of a mapping; 0 for scalars.
  std::size_t size() const;
  bool empty() const { return size() == 0; }

  // Sequences.
  const std::vector<Node>& items() const;
  std::vector<Node>& mutable_items();
  const Node& operator[](std::size_t index) const { return items()[index]; }
  void push_back(Node item);

  // Mappings.
  const std::vector<Field>& fields() const;
  std::vector<Field>& mutable_fields();
  const Node* Find(std::string_view key) const;
  Node* FindMutable(std::string_view key);
  /// Replaces the value of `key` in place, or appends it; returns the stored value.
  Node& Set(std::string key, Node value, Location key_location = {});
  /// Removes `key`; returns whether it was present.
  bool Erase(std::string_view key);

  /// True when both nodes share one representation (a cheap identity test).
  bool SharesRepresentationWith(const Node& other) const { return rep_ == other.rep_; }

 private:
  explicit Node(std::shared_ptr<detail::Rep> rep) : rep_(std::move(rep)) {}
  detail::Rep& Mutable();

  std::shared_ptr<detail::Rep> rep_;
};

struct Field {
  std::string key;
  Node value;
  Location key_location;
};

/// Data equality: kinds and scalar values exact, sequences ordered, mappings
/// unordered; locations and source text are ignored.
bool operator==(const Node& a, const Node& b);
inline bool operator!=(const Node& a, const Node& b) { return !(a == b); }

/// Counts the nodes of a tree (itself included).
std::size_t CountNodes(const Node& node);

}  // namespace tjr::doc
