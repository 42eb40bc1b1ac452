#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// What the JobSet's defaulting, validation and Job construction share:
// readers of its fields, the names the controller generates
// (pkg/util/placement/placement.go GenJobName, GenPodName) and the
// apimachinery name checks the webhook applies.
namespace tjr::admission::jobset_parts {

/// An int field of `node`, or `fallback` when absent or not an integer.
std::int64_t IntAt(const doc::Node* node, std::string_view key, std::int64_t fallback);
/// An int field, or nullopt (an unset *int32).
std::optional<std::int64_t> OptionalIntAt(const doc::Node* node, std::string_view key);

/// replicatedJob.template.spec (the Job spec), or nullptr.
const doc::Node* JobSpecOf(const doc::Node& replicated_job);
/// replicatedJob.template.spec.template.spec (the pod spec), or nullptr.
const doc::Node* PodSpecOf(const doc::Node& replicated_job);

/// placement.GenJobName: "<jobset>-<replicatedJob>-<index>".
std::string JobName(std::string_view jobset, std::string_view replicated_job, std::int64_t index);

/// GetSubdomain (pkg/controllers/jobset_controller.go): spec.network.subdomain
/// when set, else the JobSet name.
std::string Subdomain(const doc::Node& jobset);

/// CoordinatorEndpoint: "<jobset>-<rjob>-<jobIndex>-<podIndex>.<subdomain>".
std::string CoordinatorEndpoint(const doc::Node& jobset);

/// validation.IsDNS1035Label's messages, in its order.
std::vector<std::string> Dns1035LabelErrors(std::string_view value);
/// content.IsLabelValue's messages (validation.IsValidLabelValue).
std::vector<std::string> LabelValueErrors(std::string_view value);

/// The CRD's structural schema and CEL rules on a defaulted JobSet
/// (config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml at the tag).
void ValidateSchema(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors);
/// The webhook's ValidateCreate (pkg/webhooks/jobset_webhook.go).
void ValidateCreate(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors);

/// The hex SHA-1 of `text` (crypto/sha1 as jobHashKey uses it).
std::string Sha1Hex(std::string_view text);

}  // namespace tjr::admission::jobset_parts
