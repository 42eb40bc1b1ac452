#include "smp/go_value.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "doc/number_format.h"

namespace tjr::smp {
namespace {

bool Uncomparable(GoType type) { return type == GoType::kMap || type == GoType::kSlice; }

// fmt's formatting of one operand; `top` is false inside maps and slices,
// where a nil interface prints as "<nil>" whatever the verb.
void Print(const doc::Node* value, char verb, bool top, std::string& out) {
  const GoType type = GoTypeOf(value);
  const auto bad_verb = [&](std::string_view text) {
    out += "%!";
    out += verb;
    out += '(';
    out += GoTypeName(type);
    out += '=';
    out += text;
    out += ')';
  };
  switch (type) {
    case GoType::kNil:
      out += (verb == 'v' || !top) ? "<nil>" : "%!s(<nil>)";
      return;
    case GoType::kBool: {
      const char* text = value->bool_value() ? "true" : "false";
      if (verb == 'v') {
        out += text;
      } else {
        bad_verb(text);
      }
      return;
    }
    case GoType::kInt64: {
      const std::string text = std::to_string(value->int_value());
      if (verb == 'v') {
        out += text;
      } else {
        bad_verb(text);
      }
      return;
    }
    case GoType::kFloat64: {
      const std::string text = doc::FormatFloatShortestG(value->float_value());
      if (verb == 'v') {
        out += text;
      } else {
        bad_verb(text);
      }
      return;
    }
    case GoType::kString:
      out += value->string_value();
      return;
    case GoType::kSlice: {
      out += '[';
      bool first = true;
      for (const doc::Node& item : value->items()) {
        if (!first) out += ' ';
        first = false;
        Print(&item, verb, false, out);
      }
      out += ']';
      return;
    }
    case GoType::kMap: {
      // fmt prints maps in sorted key order.
      std::vector<const doc::Field*> fields;
      for (const doc::Field& field : value->fields()) fields.push_back(&field);
      std::sort(fields.begin(), fields.end(),
                [](const doc::Field* a, const doc::Field* b) { return a->key < b->key; });
      out += "map[";
      bool first = true;
      for (const doc::Field* field : fields) {
        if (!first) out += ' ';
        first = false;
        out += field->key;
        out += ':';
        Print(&field->value, verb, false, out);
      }
      out += ']';
      return;
    }
  }
}

}  // namespace

GoType GoTypeOf(const doc::Node* value) {
  if (value == nullptr) return GoType::kNil;
  switch (value->kind()) {
    case doc::Kind::kNull: return GoType::kNil;
    case doc::Kind::kBool: return GoType::kBool;
    case doc::Kind::kInt: return GoType::kInt64;
    case doc::Kind::kFloat: return GoType::kFloat64;
    case doc::Kind::kString: return GoType::kString;
    case doc::Kind::kSequence: return GoType::kSlice;
    case doc::Kind::kMapping: return GoType::kMap;
  }
  return GoType::kNil;
}

std::string_view GoTypeName(GoType type) {
  switch (type) {
    case GoType::kNil: return "%!s(<nil>)";
    case GoType::kBool: return "bool";
    case GoType::kInt64: return "int64";
    case GoType::kFloat64: return "float64";
    case GoType::kString: return "string";
    case GoType::kSlice: return "[]interface {}";
    case GoType::kMap: return "map[string]interface {}";
  }
  return "";
}

GoCompare GoEqual(const doc::Node* a, const doc::Node* b) {
  const GoType type = GoTypeOf(a);
  if (type != GoTypeOf(b)) return GoCompare::kDifferent;
  if (Uncomparable(type)) return GoCompare::kPanics;
  bool equal = true;
  switch (type) {
    case GoType::kNil: break;
    case GoType::kBool: equal = a->bool_value() == b->bool_value(); break;
    case GoType::kInt64: equal = a->int_value() == b->int_value(); break;
    case GoType::kFloat64: equal = a->float_value() == b->float_value(); break;
    case GoType::kString: equal = a->string_value() == b->string_value(); break;
    case GoType::kSlice:
    case GoType::kMap: break;
  }
  return equal ? GoCompare::kEqual : GoCompare::kDifferent;
}

bool GoHashable(const doc::Node* value) { return !Uncomparable(GoTypeOf(value)); }

std::string GoComparePanic(const doc::Node* value) {
  return "runtime error: comparing uncomparable type " + std::string(GoTypeName(GoTypeOf(value)));
}

std::string GoHashPanic(const doc::Node* value) {
  return "runtime error: hash of unhashable type " + std::string(GoTypeName(GoTypeOf(value)));
}

std::string GoSprintV(const doc::Node* value) {
  std::string out;
  Print(value, 'v', true, out);
  return out;
}

std::string GoSprintS(const doc::Node* value) {
  std::string out;
  Print(value, 's', true, out);
  return out;
}


}  // namespace tjr::smp
