#pragma once

#include <vector>

#include "admission/object_errors.h"
#include "admission/releases.h"
#include "doc/node.h"

// The JobSet as its release admits it: the CRD's schema and CEL rules and
// the webhook's Default and ValidateCreate (pkg/webhooks/jobset_webhook.go
// at the tag); and the Jobs its controller then creates
// (pkg/controllers/jobset_controller.go constructJob).
namespace tjr::admission {

/// The webhook's Default on a JobSet being created.
void DefaultJobSet(doc::Node* jobset, const JobSetRules& rules);

/// The CRD's schema and CEL rules, then the webhook's ValidateCreate, on a
/// defaulted JobSet; paths relative to the JobSet.
void ValidateJobSet(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors);

/// The Jobs the controller creates for an admitted JobSet: job index 0 of
/// each replicatedJob, in replicatedJobs order, as constructJob builds them
/// (name, labels, annotations, completion mode, subdomain, ...). The other
/// indexes differ only in their index labels and names, whose length the
/// webhook checks for the last index.
std::vector<doc::Node> FirstJobs(const doc::Node& jobset, const JobSetRules& rules);

}  // namespace tjr::admission
