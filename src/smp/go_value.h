#pragma once

#include <string>
#include <string_view>

#include "doc/node.h"
#include "gocompat/strconv.h"

// How Go sees the values strategic merge patch works on: whatever
// apimachinery's util/json decoded into interface{} (map[string]interface{},
// []interface{}, string, int64, float64, bool or nil). The merge code compares
// and hashes these as interface values, which is where Go's own rules (an
// int64 never equals a float64, maps cannot be compared) leak into results.
namespace tjr::smp {

/// reflect.TypeOf of a decoded value. An absent value (nullptr) is nil, like
/// a missing key read from a Go map.
enum class GoType { kNil, kBool, kInt64, kFloat64, kString, kSlice, kMap };

GoType GoTypeOf(const doc::Node* value);
inline GoType GoTypeOf(const doc::Node& value) { return GoTypeOf(&value); }

/// The reflect.Type string: "map[string]interface {}", "[]interface {}",
/// "int64"...; for nil, what `%s` prints for a nil reflect.Type.
std::string_view GoTypeName(GoType type);

/// The outcome of Go's `a == b` on two interface{} values. Values of one
/// uncomparable dynamic type (two maps, two slices) make Go panic.
enum class GoCompare { kEqual, kDifferent, kPanics };

GoCompare GoEqual(const doc::Node* a, const doc::Node* b);

/// Whether Go can use the value as a map key (maps and slices panic).
bool GoHashable(const doc::Node* value);

/// The runtime error Go panics with when comparing or hashing `value`.
std::string GoComparePanic(const doc::Node* value);
std::string GoHashPanic(const doc::Node* value);

/// fmt's `%v` and `%s` of a decoded value (maps print with sorted keys).
std::string GoSprintV(const doc::Node* value);
std::string GoSprintS(const doc::Node* value);
inline std::string GoSprintV(const doc::Node& value) { return GoSprintV(&value); }


}  // namespace tjr::smp
