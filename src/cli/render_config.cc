#include "cli/render_config.h"

#include <filesystem>
#include <system_error>

#include "base/file.h"
#include "yaml/reader.h"

namespace tjr::cli {

std::string RepoConfigPath(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::error_code error;
  // Start at the first PATH (a file's own folder), else here; then each
  // parent folder up to the repository's root (the folder holding .git), as
  // linters look up their configuration, so `render repo/trainjobs` and a
  // hook run on staged files find the repository's file.
  fs::path dir = ".";
  if (!paths.empty() && paths.front() != "-") {
    fs::path first = paths.front();
    dir = fs::is_directory(first, error) ? first : first.parent_path();
    if (dir.empty()) dir = ".";
  }
  const fs::path start = (dir / kRepoConfigFile).lexically_normal();
  for (int depth = 0; depth < 64; ++depth) {
    fs::path candidate = (dir / kRepoConfigFile).lexically_normal();
    if (fs::is_regular_file(candidate, error)) return candidate.string();
    if (fs::exists(dir / ".git", error)) break;
    fs::path absolute = fs::absolute(dir, error).lexically_normal();
    if (error || !absolute.has_relative_path()) break;  // the file system's root
    dir /= "..";
  }
  return start.string();
}

namespace {

// `ignore:` is a list of {rule, reason}; a reason is required, so every
// silenced warning says why in the repository.
Status ReadIgnoreList(const doc::Node& list, std::vector<report::IgnoreRule>* rules) {
  if (!list.is_sequence()) {
    return MakeError(list.location(), "ignore", "must be a list of {rule: ID, reason: TEXT}");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const doc::Node& entry = list[i];
    std::string path = "ignore[" + std::to_string(i) + "]";
    if (!entry.is_mapping()) {
      return MakeError(entry.location(), path, "must be a mapping {rule: ID, reason: TEXT}");
    }
    report::IgnoreRule rule;
    for (const doc::Field& field : entry.fields()) {
      if ((field.key != "rule" && field.key != "reason") || !field.value.is_string()) {
        return MakeError(field.value.location(), path + "." + field.key,
                         "only `rule` and `reason`, both strings, are allowed");
      }
      (field.key == "rule" ? rule.rule : rule.reason) = field.value.string_value();
    }
    if (rule.rule.empty()) return MakeError(entry.location(), path + ".rule", "is required");
    if (rule.reason.empty()) {
      return MakeError(entry.location(), path + ".reason",
                       "is required: say why the rule is ignored");
    }
    rules->push_back(std::move(rule));
  }
  return Ok();
}

}  // namespace

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
    if (field.key == "ignore") {
      Status read = ReadIgnoreList(field.value, &config.ignore);
      if (!read.ok()) return AsInputError(read.take_error());
      continue;
    }
    if (field.key != "target") {
      return AsInputError(MakeError(field.key_location.known() ? field.key_location : file, "",
                                    "unknown setting '" + field.key + "' (known: target, ignore)"));
    }
    if (!field.value.is_string()) {
      return AsInputError(MakeError(field.value.location(), "target", "must be a string"));
    }
    config.target = field.value.string_value();
  }
  return config;
}

}  // namespace tjr::cli
