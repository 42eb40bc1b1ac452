#include "trainer/api_types.h"

#include <array>
#include <mutex>
#include <optional>
#include <string>

namespace tjr::trainer {

Result<const schema::Schema*> ReleaseSchema(TrainerVersion version) {
  // Validation asks once per checked value: one slot per release, filled on
  // first use (thread-safe), so the lookup costs no lock and no allocation.
  static std::array<std::once_flag, kReleaseCount> once;
  static std::array<std::optional<Result<const schema::Schema*>>, kReleaseCount> slots;
  const auto index = static_cast<std::size_t>(version);
  if (index >= slots.size()) return MakeError({}, "", "unknown Trainer release");
  std::call_once(once[index], [&] {
    const Release& release = ReleaseOf(version);
    slots[index].emplace(schema::BuiltinSchema({std::string(release.kubernetes_schema),
                                                std::string(release.jobset_schema),
                                                std::string(release.trainer_schema)}));
  });
  return *slots[index];
}

const schema::Type* FindApiType(const schema::Schema& schema, std::string_view name) {
  std::string qualified(kApiPackage);
  qualified += '.';
  qualified += name;
  return schema.FindType(qualified);
}

}  // namespace tjr::trainer
