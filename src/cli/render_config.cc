#include "cli/render_config.h"

#include <filesystem>
#include <system_error>

#include "base/file.h"
#include "yaml/reader.h"

namespace tjr::cli {

std::string RepoConfigPath(const std::vector<std::string>& paths) {
  std::error_code error;
  if (!paths.empty() && paths.front() != "-" &&
      std::filesystem::is_directory(paths.front(), error)) {
    return (std::filesystem::path(paths.front()) / kRepoConfigFile).string();
  }
  return kRepoConfigFile;
}

Result<RepoConfig> ReadRepoConfig(const std::string& path) {
  RepoConfig config;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return config;
  Result<std::string> text = ReadFile(path, std::size_t{1} << 20);
  if (!text.ok()) return AsInputError(text.take_error());
  Result<std::vector<doc::Node>> documents = yaml::ReadStream(*text, path);
  if (!documents.ok()) return AsInputError(documents.take_error());
  Location file{InternSourceName(path)};
  if (documents->empty()) return config;
  if (documents->size() != 1 || !(*documents)[0].is_mapping()) {
    return AsInputError(MakeError(file, "", "must hold one mapping (e.g. `target: trainer-v2.1`)"));
  }
  for (const doc::Field& field : (*documents)[0].fields()) {
    if (field.key != "target") {
      return AsInputError(MakeError(field.key_location.known() ? field.key_location : file, "",
                                    "unknown setting '" + field.key + "' (known: target)"));
    }
    if (!field.value.is_string()) {
      return AsInputError(MakeError(field.value.location(), "target", "must be a string"));
    }
    config.target = field.value.string_value();
  }
  return config;
}

}  // namespace tjr::cli
