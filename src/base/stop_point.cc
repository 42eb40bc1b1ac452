#include "base/stop_point.h"

#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

namespace tjr {
namespace {

struct Target {
  std::string name;
  long count = 1;
};

const std::optional<Target>& Wanted() {
  static const std::optional<Target> target = []() -> std::optional<Target> {
    const char* value = std::getenv("TJRENDER_TEST_STOP_AT");
    if (value == nullptr || *value == '\0') return std::nullopt;
    Target parsed;
    const char* colon = std::strchr(value, ':');
    parsed.name = colon == nullptr ? std::string(value) : std::string(value, colon);
    if (colon != nullptr) parsed.count = std::strtol(colon + 1, nullptr, 10);
    return parsed;
  }();
  return target;
}

}  // namespace

void StopPoint(const char* name) {
  const std::optional<Target>& target = Wanted();
  if (!target || target->name != name) return;
  static std::atomic<long> reached = 0;
  if (++reached == target->count) ::raise(SIGSTOP);
}

}  // namespace tjr
