#include "conformance/merge_target.h"

#include "schema/schema.h"
#include "smp/strategic_merge.h"
#include "typed/round_trip.h"

namespace tjr::conformance {
namespace {

constexpr std::string_view kJobSetGroupPrefix = "jobset.x-k8s.io/";

Diagnostic CommandError(std::string message) {
  return AsInputError(MakeError(Location{}, "command", std::move(message)));
}

Diagnostic FileError(const InputFile& file, std::string message) {
  return AsInputError(MakeError(Location{InternSourceName(file.name)}, "", std::move(message)));
}

std::string_view FileStem(std::string_view name) {
  std::size_t slash = name.rfind('/');
  if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  std::size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(0, dot);
}

std::string_view StringField(const doc::Node& object, std::string_view key) {
  const doc::Node* value = object.Find(key);
  return value != nullptr && value->is_string() ? std::string_view(value->string_value())
                                                : std::string_view();
}

std::string JoinComma(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// The original object and the patches, in the order they apply.
struct MergeInputs {
  doc::Node object;
  std::vector<doc::Node> patches;
};

Result<MergeInputs> SplitRoles(const std::vector<InputFile>& inputs) {
  MergeInputs roles;
  const InputFile* object_file = nullptr;
  for (const InputFile& file : inputs) {
    std::string_view stem = FileStem(file.name);
    if (stem == "object") {
      if (object_file != nullptr) {
        return FileError(file, "a merge case has one object file; " + object_file->name +
                                   " is already the original object");
      }
      object_file = &file;
      if (file.documents.size() != 1 || !file.documents.front().is_mapping()) {
        return FileError(file, "the object file must hold exactly one object (a mapping)");
      }
      roles.object = file.documents.front();
    } else if (stem.starts_with("patch")) {
      roles.patches.insert(roles.patches.end(), file.documents.begin(), file.documents.end());
    } else {
      return FileError(file, "a merge case's input files are object.* and patch*.*");
    }
  }
  if (object_file == nullptr) {
    return AsInputError(
        MakeError(Location{}, "", "a merge case needs input/object.yaml (or .yml, .json)"));
  }
  if (roles.patches.empty()) {
    return AsInputError(MakeError(Location{}, "", "a merge case needs at least one patch "
                                                  "document in input/patch*.yaml"));
  }
  return roles;
}

}  // namespace

Result<MergeCommand> ParseMergeCommand(const std::vector<std::string>& command) {
  MergeCommand parsed;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const std::string& argument = command[i];
    std::string value;
    if (argument == "--typed") {
      parsed.typed = true;
      continue;
    }
    if (argument == "--jobset-version") {
      if (i + 1 == command.size()) return CommandError("--jobset-version needs a value");
      value = command[++i];
    } else if (argument.starts_with("--jobset-version=")) {
      value = argument.substr(std::string_view("--jobset-version=").size());
    } else {
      return CommandError("unknown option '" + argument +
                          "' for target merge (known: --jobset-version v0.10|v0.12, --typed)");
    }
    if (value != "v0.10" && value != "v0.12") {
      return CommandError("--jobset-version must be v0.10 or v0.12, not '" + value + "'");
    }
    parsed.jobset_version = value;
  }
  return parsed;
}

Result<std::vector<std::string>> MergePolicySets(std::string_view api_version,
                                                 const MergeCommand& command) {
  if (api_version.starts_with(kJobSetGroupPrefix)) {
    if (command.jobset_version == "v0.10") {
      return std::vector<std::string>{"kubernetes-v1.34", "jobset-v0.10.1"};
    }
    if (command.jobset_version == "v0.12") {
      return std::vector<std::string>{"kubernetes-v1.36", "jobset-v0.12.0"};
    }
    return CommandError("a JobSet case must say --jobset-version v0.10 or v0.12");
  }
  if (!command.jobset_version.empty()) {
    return CommandError("--jobset-version applies only to JobSet objects, not " +
                        std::string(api_version));
  }
  return std::vector<std::string>{"kubernetes-v1.34"};
}

Result<TargetOutput> RunMergeTarget(const std::vector<InputFile>& inputs,
                                    const std::vector<std::string>& command) {
  auto options = ParseMergeCommand(command);
  if (!options.ok()) return options.take_error();
  auto roles = SplitRoles(inputs);
  if (!roles.ok()) return roles.take_error();
  std::string_view api_version = StringField(roles->object, "apiVersion");
  std::string_view kind = StringField(roles->object, "kind");
  auto policy_sets = MergePolicySets(api_version, *options);
  if (!policy_sets.ok()) return policy_sets.take_error();
  auto schema = schema::BuiltinSchema(*policy_sets);
  if (!schema.ok()) return AsInputError(schema.take_error());

  TargetOutput output;
  const schema::Type* type = (*schema)->ForKind(api_version, kind);
  if (type == nullptr) {
    output.diagnostics.push_back(MakeError(
        roles->object.location(), "",
        "no type for apiVersion '" + std::string(api_version) + "', kind '" +
            std::string(kind) + "' in policy sets " + JoinComma(*policy_sets)));
    return output;
  }
  doc::Node merged = roles->object;
  for (const doc::Node& patch : roles->patches) {
    if (!patch.is_mapping()) {
      output.diagnostics.push_back(
          MakeError(patch.location(), "", "a patch must be a mapping, not a " +
                                              std::string(doc::KindName(patch.kind()))));
      return output;
    }
    auto result = smp::StrategicMerge(merged, patch, *type);
    if (!result.ok()) {
      output.diagnostics.push_back(result.take_error());
      return output;
    }
    merged = std::move(result).value();
  }
  if (options->typed) {
    auto typed = typed::TypedRoundTrip(merged, *type);
    if (!typed.ok()) {
      output.diagnostics.push_back(typed.take_error());
      return output;
    }
    merged = std::move(typed).value();
  }
  output.objects.push_back(std::move(merged));
  return output;
}

}  // namespace tjr::conformance
