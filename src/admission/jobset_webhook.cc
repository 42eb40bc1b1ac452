// The JobSet webhook's ValidateCreate (pkg/webhooks/jobset_webhook.go at
// v0.10.1, v0.11.0, v0.12.0), in its order, with its texts. Before v0.12.0
// the webhook answers errors.Join of its errors, so a plain fmt.Errorf is
// only its text; at v0.12.0 invalidError wraps it as
// field.InternalError(nil, err): "<nil>: Internal error: <text>". The
// feature gates are at their defaults (pkg/features/features.go:
// InPlaceRestart and RestartJob off). Not emulated: the checks against PVCs
// already in the cluster (validateVolumeClaimPolicies' client.Get), and the
// "don't have a matching volumeMount" error, whose value is the JSON of the
// whole typed []ReplicatedJob.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "admission/jobset_parts.h"
#include "doc/path.h"
#include "validate/domain_path.h"

namespace tjr::admission::jobset_parts {
namespace {

using validate::BadValue;
using validate::ErrorType;
using validate::FieldError;

constexpr std::string_view kMaxLen63 = "must be no more than 63 characters";  // dns1035MaxLengthExceededErrorMsg
constexpr std::int64_t kMaxInt32 = std::numeric_limits<std::int32_t>::max();

// The catalogue ids (rules_jobset.cc).
constexpr std::string_view kNames = "generated-names";
constexpr std::string_view kSubdomain = "subdomain";
constexpr std::string_view kManagedBy = "managed-by-path";
constexpr std::string_view kReplicas = "replicas-parallelism";
constexpr std::string_view kDependsOn = "depends-on";
constexpr std::string_view kPolicyTargets = "policy-targets";
constexpr std::string_view kFailurePolicy = "failure-policy";
constexpr std::string_view kCoordinator = "coordinator";
constexpr std::string_view kFeatureGates = "feature-gates";
constexpr std::string_view kVolumeClaims = "volume-claim-policies";

// `value - 1` in int32 arithmetic, which wraps (Replicas-1 of MinInt32).
std::int64_t Int32Minus1(std::int64_t value) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(value) - 1u);
}

class Webhook {
 public:
  Webhook(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors)
      : jobset_(jobset), rules_(rules), errors_(errors), spec_(doc::At(&jobset, "spec")),
        name_(doc::StringAtPath(jobset, {"metadata", "name"})),
        name_node_(doc::FindPath(jobset, {"metadata", "name"})) {}

  void Run();

 private:
  // A plain fmt.Errorf of the webhook.
  void Plain(std::string_view rule, std::string text, std::initializer_list<const doc::Node*> at) {
    if (rules_.invalid_status_error) {
      errors_->Add(rule, FieldError{ErrorType::kInternal, "<nil>", BadValue::Omit(), std::move(text)}, at);
    } else {
      errors_->AddText(rule, std::move(text), at);
    }
  }
  void Invalid(std::string_view rule, const Path& path, std::string_view value, std::string detail,
               std::initializer_list<const doc::Node*> at) {
    errors_->Add(rule, FieldError{ErrorType::kInvalid, path.String(), BadValue::String(value), std::move(detail)}, at);
  }

  void CheckSubdomain();
  void CheckManagedBy();
  void CheckReplicatedJob(const doc::Node& job, std::size_t index);
  void CheckSuccessPolicy();
  void CheckFailurePolicy();
  void CheckCoordinator();
  void CheckVolumeClaimPolicies();

  const doc::Node& jobset_;
  const JobSetRules& rules_;
  ObjectErrors* errors_;
  const doc::Node* spec_;
  std::string name_;
  const doc::Node* name_node_;
  std::set<std::string> names_;  ///< rJobNames: the replicatedJobs seen so far
};

void Webhook::Run() {
  const doc::Node* policy = doc::At(spec_, "failurePolicy");
  if (rules_.in_place_restart_strategy && doc::StringAt(policy, "restartStrategy") == "InPlaceRestart") {
    Plain(kFeatureGates, "InPlaceRestart restart strategy cannot be set when InPlaceRestart feature gate is disabled",
          {doc::At(policy, "restartStrategy"), policy});
  }
  const std::vector<doc::Node>& jobs = doc::Items(doc::At(spec_, "replicatedJobs"));
  // `DependsOn != nil`: an empty list is set too.
  if (!jobs.empty() && doc::At(&jobs[0], "dependsOn") != nullptr) {
    Plain(kDependsOn, "DependsOn can't be set for the first ReplicatedJob", {doc::At(&jobs[0], "dependsOn"), &jobs[0]});
  }
  CheckSubdomain();
  CheckManagedBy();
  for (std::size_t index = 0; index < jobs.size(); ++index) CheckReplicatedJob(jobs[index], index);
  CheckSuccessPolicy();
  if (policy != nullptr) CheckFailurePolicy();
  if (doc::At(spec_, "coordinator") != nullptr) CheckCoordinator();
  if (rules_.volume_claim_policies && !doc::Items(doc::At(spec_, "volumeClaimPolicies")).empty()) {
    CheckVolumeClaimPolicies();
  }
}

void Webhook::CheckSubdomain() {
  const doc::Node* node = doc::AtPath(spec_, {"network", "subdomain"});
  const std::string subdomain = doc::StringAtPath(spec_, {"network", "subdomain"});
  if (subdomain.empty()) return;
  const Path path = Path("spec").Child("network").Child("subdomain");
  for (std::string& message : validate::Dns1123SubdomainErrors(subdomain)) {
    Invalid(kSubdomain, path, subdomain, std::move(message), {node});
  }
  // The subdomain names the headless Service too: RFC 1035.
  for (std::string& message : Dns1035LabelErrors(subdomain)) {
    if (message.find(kMaxLen63) != std::string::npos) {
      message = ".spec.network.subdomain is too long, must be less than 63 characters";  // subdomainTooLongErrMsg
    }
    Invalid(kSubdomain, path, subdomain, std::move(message), {node});
  }
}

void Webhook::CheckManagedBy() {
  const doc::Node* node = doc::At(spec_, "managedBy");
  if (node == nullptr || !node->is_string()) return;
  const std::string& manager = node->string_value();
  const std::string path = "spec.managedBy";
  for (FieldError& error : validate::DomainPrefixedPathErrors(path, manager)) {
    errors_->Add(kManagedBy, std::move(error), {node});
  }
  if (manager.size() > 63) {  // maxManagedByLength; field.TooLongMaxLength
    errors_->Add(kManagedBy,
                 FieldError{ErrorType::kTooLong, path, BadValue::String(manager), "may not be more than 63 bytes"},
                 {node});
  }
}

void Webhook::CheckReplicatedJob(const doc::Node& job, std::size_t index) {
  const Path path = Path("spec").Child("replicatedJobs").Index(index);
  const std::string job_name = doc::StringAt(&job, "name");
  const doc::Node* name_node = doc::At(&job, "name");
  names_.insert(job_name);
  const doc::Node* job_spec = JobSpecOf(job);
  const std::int64_t replicas = IntAt(&job, "replicas", 0);

  const std::int64_t parallelism = IntAt(job_spec, "parallelism", 1);
  if (parallelism * replicas > kMaxInt32) {
    Plain(kReplicas,
          "the product of replicas and parallelism must not exceed 2147483647 for replicatedJob '" + job_name + "'",
          {doc::At(&job, "replicas"), doc::At(job_spec, "parallelism"), &job});
  }
  const std::string group = doc::StringAt(&job, "groupName");
  for (std::string& message : Dns1035LabelErrors(group)) {
    if (message.find(kMaxLen63) != std::string::npos) {
      message = ".spec.replicatedJob[].groupName is too long, must be less than 63 characters";
    }
    Invalid(kNames, path.Child("groupName"), group, std::move(message), {doc::At(&job, "groupName"), &job});
  }
  // The job with the largest index has the longest name.
  const std::string longest_job = JobName(name_, job_name, Int32Minus1(replicas));
  for (std::string& message : Dns1035LabelErrors(longest_job)) {
    // A name too long is the JobSet's (the TrainJob's) to shorten; a
    // malformed one is most often the replicatedJob's.
    if (message.find(kMaxLen63) != std::string::npos) {
      message = "JobSet name is too long, job names generated for this JobSet will exceed 63 characters";
      Invalid(kNames, path.Child("name"), longest_job, std::move(message), {name_node_});
      continue;
    }
    Invalid(kNames, path.Child("name"), longest_job, std::move(message), {name_node, name_node_, &job});
  }
  const std::optional<std::int64_t> completions = OptionalIntAt(job_spec, "completions");
  if (doc::StringAt(job_spec, "completionMode") == "Indexed" && completions.has_value()) {
    // GenPodName plus the 5-character suffix of a generated pod name; the
    // error's value is the job name, as upstream passes it.
    const std::string longest_pod = longest_job + "-" + std::to_string(Int32Minus1(*completions)) + "-abcde";
    for (std::string& message : Dns1035LabelErrors(longest_pod)) {
      if (message.find(kMaxLen63) != std::string::npos) {
        message = "JobSet name is too long, pod names generated for this JobSet will exceed 63 characters";
        Invalid(kNames, path.Child("name"), longest_job, std::move(message), {name_node_});
        continue;
      }
      Invalid(kNames, path.Child("name"), longest_job, std::move(message), {name_node, name_node_, &job});
    }
  }
  for (const doc::Node& dependency : doc::Items(doc::At(&job, "dependsOn"))) {
    const std::string target = doc::StringAt(&dependency, "name");
    if (names_.count(target) != 0) continue;
    Plain(kDependsOn, "replicatedJob: " + job_name + " cannot depend on replicatedJob: " + target,
          {doc::At(&dependency, "name"), &dependency});
  }
}

void Webhook::CheckSuccessPolicy() {
  for (const doc::Node& target : doc::Items(doc::AtPath(spec_, {"successPolicy", "targetReplicatedJobs"}))) {
    const std::string name = target.is_string() ? target.string_value() : "";
    if (names_.count(name) != 0) continue;
    Plain(kPolicyTargets, "invalid replicatedJob name '" + name + "' does not appear in .spec.ReplicatedJobs",
          {&target});
  }
}

// ruleNameFmt "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$".
bool MatchesRuleName(std::string_view name) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto word = [&](char c) { return letter(c) || (c >= '0' && c <= '9') || c == '_'; };
  if (name.empty() || !letter(name.front())) return false;
  if (name.size() > 1 && !word(name.back())) return false;
  for (char c : name.substr(1)) {
    if (!word(c) && c != ',' && c != ':') return false;
  }
  return true;
}

void Webhook::CheckFailurePolicy() {
  const doc::Node* policy = doc::At(spec_, "failurePolicy");
  const std::vector<doc::Node>& rules = doc::Items(doc::At(policy, "rules"));
  if (rules_.restart_job_actions) {
    for (const doc::Node& rule : rules) {
      const std::string action = doc::StringAt(&rule, "action");
      if (action != "RestartJob" && action != "RestartJobAndIgnoreMaxRestarts") continue;
      // The RestartJob gate is off: this error alone (an early return).
      Plain(kFeatureGates,
            "RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not allowed when RestartJob "
            "feature gate is disabled",
            {doc::At(&rule, "action"), &rule});
      return;
    }
  }
  // validOnJobFailureReasons: the batchv1 JobReason* constants.
  static const std::set<std::string> kReasons = {"BackoffLimitExceeded", "DeadlineExceeded", "FailedIndexes",
                                                 "MaxFailedIndexesExceeded", "PodFailurePolicy"};
  std::vector<std::pair<std::string, std::vector<std::size_t>>> by_name;  // first-seen order
  for (std::size_t index = 0; index < rules.size(); ++index) {
    const doc::Node& rule = rules[index];
    const std::string name = doc::StringAt(&rule, "name");
    const doc::Node* name_node = doc::At(&rule, "name");
    if (name.empty() || name.size() > 128) {
      Plain(kFailurePolicy,
            "invalid failure policy rule name of length " + std::to_string(name.size()) +
                ", the rule name must be at least 1 characters long and at most 128 characters long",
            {name_node, &rule});
    }
    auto entry = std::find_if(by_name.begin(), by_name.end(), [&](const auto& seen) { return seen.first == name; });
    if (entry == by_name.end()) {
      by_name.push_back({name, {index}});
    } else {
      entry->second.push_back(index);
    }
    if (!MatchesRuleName(name)) {
      Plain(kFailurePolicy,
            "invalid failure policy rule name '" + name +
                "', a failure policy rule name must start with an alphabetic character, optionally followed by a "
                "string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
            {name_node, &rule});
    }
    for (const doc::Node& target : doc::Items(doc::At(&rule, "targetReplicatedJobs"))) {
      const std::string job = target.is_string() ? target.string_value() : "";
      if (names_.count(job) != 0) continue;
      Plain(kPolicyTargets,
            "invalid replicatedJob name '" + job + "' in failure policy does not appear in .spec.ReplicatedJobs",
            {&target, &rule});
    }
    for (const doc::Node& reason : doc::Items(doc::At(&rule, "onJobFailureReasons"))) {
      const std::string text = reason.is_string() ? reason.string_value() : "";
      if (kReasons.count(text) != 0) continue;
      Plain(kFailurePolicy,
            "invalid job failure reason '" + text + "' in failure policy is not a recognized job failure reason",
            {&reason, &rule});
    }
  }
  // Upstream walks a Go map here, in no fixed order; first-seen order is
  // one of its orders.
  for (const auto& [name, indexes] : by_name) {
    if (indexes.size() < 2) continue;
    std::string list = "[";
    for (std::size_t i = 0; i < indexes.size(); ++i) list += (i == 0 ? "" : " ") + std::to_string(indexes[i]);
    list += "]";
    Plain(kFailurePolicy,
          "rule names are not unique, rules with indices " + list + " all have the same name '" + name + "'",
          {doc::At(&rules[indexes[1]], "name"), &rules[indexes[1]]});
  }
}

// validateCoordinator (the first failure only), then, from v0.11.0,
// validateCoordinatorLabelValue.
void Webhook::CheckCoordinator() {
  const doc::Node* coordinator = doc::At(spec_, "coordinator");
  const std::string target = doc::StringAt(coordinator, "replicatedJob");
  const std::int64_t job_index = IntAt(coordinator, "jobIndex", 0);
  const std::int64_t pod_index = IntAt(coordinator, "podIndex", 0);
  const doc::Node* job = nullptr;
  for (const doc::Node& candidate : doc::Items(doc::At(spec_, "replicatedJobs"))) {
    if (doc::StringAt(&candidate, "name") == target) {
      job = &candidate;
      break;
    }
  }
  const doc::Node* job_spec = job == nullptr ? nullptr : JobSpecOf(*job);
  const std::optional<std::int64_t> completions = OptionalIntAt(job_spec, "completions");
  if (job == nullptr) {
    Plain(kCoordinator, "coordinator replicatedJob " + target + " does not exist",
          {doc::At(coordinator, "replicatedJob"), coordinator});
  } else if (job_index < 0 || job_index >= IntAt(job, "replicas", 0)) {
    Plain(kCoordinator,
          "coordinator job index " + std::to_string(job_index) + " is invalid for replicatedJob " + target,
          {doc::At(coordinator, "jobIndex"), coordinator});
  } else if (doc::StringAt(job_spec, "completionMode") != "Indexed" || !completions.has_value()) {
    Plain(kCoordinator, "job for coordinator pod must be indexed completion mode, and completions number must be set",
          {doc::At(job_spec, "completionMode"), coordinator});
  } else if (pod_index < 0 || pod_index >= *completions) {
    Plain(kCoordinator,
          "coordinator pod index " + std::to_string(pod_index) + " is invalid for replicatedJob " + target +
              " job index " + std::to_string(job_index),
          {doc::At(coordinator, "podIndex"), coordinator});
  }
  if (!rules_.coordinator_label_check) return;
  const std::string endpoint = CoordinatorEndpoint(jobset_);
  const std::vector<std::string> problems = LabelValueErrors(endpoint);
  if (problems.empty()) return;
  std::string joined;
  for (const std::string& problem : problems) joined += (joined.empty() ? "" : ", ") + problem;
  Plain(kCoordinator,
        "spec will lead to invalid label value " + BadValue::String(endpoint).text + " for coordinator label " +
            BadValue::String("jobset.sigs.k8s.io/coordinator").text +
            " (long JobSet / ReplicatedJob / SubDomain name?): " + joined,
        {name_node_, coordinator});
}

// validateVolumeClaimPolicies (v0.11.0), without what needs the cluster.
void Webhook::CheckVolumeClaimPolicies() {
  std::set<std::string> claims;
  std::size_t policy_index = 0;
  for (const doc::Node& policy : doc::Items(doc::At(spec_, "volumeClaimPolicies"))) {
    std::size_t template_index = 0;
    for (const doc::Node& claim : doc::Items(doc::At(&policy, "templates"))) {
      // Upstream's path says "template", not "templates".
      const Path path =
          Path("spec").Child("volumeClaimPolicies").Index(policy_index).Child("template").Index(template_index++);
      const std::string name = doc::StringAtPath(claim, {"metadata", "name"});
      const doc::Node* name_node = doc::FindPath(claim, {"metadata", "name"});
      if (claims.count(name) != 0) {
        Invalid(kVolumeClaims, path.Child("name"), name, "names must be unique for VolumeClaimPolicies template",
                {name_node, &claim});
      }
      for (std::string& message : validate::Dns1123SubdomainErrors(name)) {
        Invalid(kVolumeClaims, path.Child("name"), name, std::move(message), {name_node, &claim});
      }
      // GeneratePVCName: "<template>-<jobset>", at most maxVolumeClaimLength.
      if (name.size() + 1 + name_.size() > 63) {
        Invalid(kVolumeClaims, path.Child("name"), name, "VolumeClaimPolicies template name is too long",
                {name_node, &claim});
      }
      std::size_t job_index = 0;
      for (const doc::Node& job : doc::Items(doc::At(spec_, "replicatedJobs"))) {
        const Path volumes = Path("spec")
                                 .Child("replicatedJobs")
                                 .Index(job_index++)
                                 .Child("template")
                                 .Child("spec")
                                 .Child("template")
                                 .Child("spec")
                                 .Child("volumes");
        std::size_t volume_index = 0;
        for (const doc::Node& volume : doc::Items(doc::At(PodSpecOf(job), "volumes"))) {
          const Path at = volumes.Index(volume_index++);
          if (doc::StringAt(&volume, "name") != name) continue;
          Invalid(kVolumeClaims, at.Child("name"), name,
                  "volume name conflicts with VolumeClaimPolicy template name: " + name,
                  {doc::At(&volume, "name"), &volume});
        }
      }
      claims.insert(name);
    }
    ++policy_index;
  }
}

}  // namespace

void ValidateCreate(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors) {
  if (!rules.invalid_status_error) {
    // errors.Join keeps every error, a repeated text too.
    Webhook(jobset, rules, errors).Run();
    return;
  }
  // apierrors.NewInvalid's message is the list's ToAggregate, which drops
  // an exact repetition (the job and the pod name of a malformed
  // replicatedJob name give the same error).
  ObjectErrors found;
  Webhook(jobset, rules, &found).Run();
  std::set<std::string> seen;
  for (ObjectError& error : found.Take()) {
    if (!seen.insert(error.error.Error()).second) continue;
    errors->Add(error.rule, std::move(error.error), {error.at});
  }
}

}  // namespace tjr::admission::jobset_parts
