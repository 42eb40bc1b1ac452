#include "smp/upstream_errors.h"

namespace tjr::smp {

std::string ErrNoMergeKey(const doc::Node& map, std::string_view merge_key) {
  return "map: " + GoSprintV(map) + " does not contain declared merge key: " +
         std::string(merge_key);
}

std::string ErrBadArgType(GoType expected, const doc::Node* actual) {
  return "expected a " + std::string(GoTypeName(expected)) + ", but received a " +
         std::string(GoTypeName(GoTypeOf(actual)));
}

std::string ErrBadPatchType(const doc::Node& directive, const doc::Node& map) {
  return "unknown patch type: " + GoSprintS(&directive) + " in map: " + GoSprintV(map);
}

std::string ErrUpstreamPanic(std::string_view runtime_error) {
  return "strategic merge patch panics here upstream (" + std::string(runtime_error) + ")";
}

}  // namespace tjr::smp
