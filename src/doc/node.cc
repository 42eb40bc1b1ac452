#include "doc/node.h"

#include <cassert>
#include <utility>

namespace tjr::doc {
namespace detail {

struct Rep {
  Kind kind = Kind::kNull;
  Location location;
  union {
    bool b;
    std::int64_t i;
    double f;
  } scalar{};
  std::string text;
  std::vector<Node> items;
  std::vector<Field> fields;
};

}  // namespace detail

using detail::Rep;

namespace {

const Location kNoLocation{};
const std::string kEmptyString;
const std::vector<Node> kNoItems;
const std::vector<Field> kNoFields;

std::shared_ptr<Rep> NewRep(Kind kind, Location at) {
  auto rep = std::make_shared<Rep>();
  rep->kind = kind;
  rep->location = at;
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

Node::Node() = default;

Node Node::Null(Location at) { return Node(NewRep(Kind::kNull, at)); }

Node Node::Bool(bool value, Location at) {
  auto rep = NewRep(Kind::kBool, at);
  rep->scalar.b = value;
  return Node(std::move(rep));
}

Node Node::Int(std::int64_t value, Location at, std::string source_text) {
  auto rep = NewRep(Kind::kInt, at);
  rep->scalar.i = value;
  rep->text = std::move(source_text);
  return Node(std::move(rep));
}

Node Node::Float(double value, Location at, std::string source_text) {
  auto rep = NewRep(Kind::kFloat, at);
  rep->scalar.f = value;
  rep->text = std::move(source_text);
  return Node(std::move(rep));
}

Node Node::String(std::string value, Location at) {
  auto rep = NewRep(Kind::kString, at);
  rep->text = std::move(value);
  return Node(std::move(rep));
}

Node Node::Sequence(Location at) { return Node(NewRep(Kind::kSequence, at)); }
Node Node::Mapping(Location at) { return Node(NewRep(Kind::kMapping, at)); }

Kind Node::kind() const { return rep_ ? rep_->kind : Kind::kNull; }

const Location& Node::location() const { return rep_ ? rep_->location : kNoLocation; }

void Node::set_location(Location at) { Mutable().location = at; }

Rep& Node::Mutable() {
  if (!rep_) {
    rep_ = NewRep(Kind::kNull, {});
  } else if (rep_.use_count() > 1) {
    // Shallow copy: children are shared handles and detach on their own
    // mutation.
    rep_ = std::make_shared<Rep>(*rep_);
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
  return rep_->text;
}

const std::string& Node::source_text() const { return rep_ ? rep_->text : kEmptyString; }

std::size_t Node::size() const {
  if (!rep_) return 0;
  if (rep_->kind == Kind::kSequence) return rep_->items.size();
  if (rep_->kind == Kind::kMapping) return rep_->fields.size();
  return 0;
}

const std::vector<Node>& Node::items() const {
  return is_sequence() ? rep_->items : kNoItems;
}

std::vector<Node>& Node::mutable_items() {
  assert(is_sequence());
  return Mutable().items;
}

void Node::push_back(Node item) { mutable_items().push_back(std::move(item)); }

const std::vector<Field>& Node::fields() const {
  return is_mapping() ? rep_->fields : kNoFields;
}

std::vector<Field>& Node::mutable_fields() {
  assert(is_mapping());
  return Mutable().fields;
}

const Node* Node::Find(std::string_view key) const {
  for (const Field& field : fields()) {
    if (field.key == key) return &field.value;
  }
  return nullptr;
}

Node* Node::FindMutable(std::string_view key) {
  if (Find(key) == nullptr) return nullptr;
  for (Field& field : mutable_fields()) {
    if (field.key == key) return &field.value;
  }
  return nullptr;
}

Node& Node::Set(std::string key, Node value, Location key_location) {
  std::vector<Field>& all = mutable_fields();
  for (Field& field : all) {
    if (field.key == key) {
      field.value = std::move(value);
      return field.value;
    }
  }
  all.push_back(Field{std::move(key), std::move(value), key_location});
  return all.back().value;
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
