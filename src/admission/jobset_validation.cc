// ValidateJobSet: the order in which the API server admits a JobSet. The
// custom resource strategy validates the object's metadata, its schema and
// CEL rules (apiextensions-apiserver customResourceStrategy.Validate); only
// an object that passes reaches the validating webhook (the registry's
// BeforeCreate comes before the admission's createValidation), so schema
// errors come alone.
#include "admission/jobset.h"
#include "admission/jobset_parts.h"
#include "admission/object_meta.h"
#include "doc/path.h"

namespace tjr::admission {

void ValidateJobSet(const doc::Node& jobset, const JobSetRules& rules, ObjectErrors* errors) {
  ValidateObjectMeta(doc::At(&jobset, "metadata"), true, NameRule::kDns1123Subdomain, Path("metadata"), errors);
  jobset_parts::ValidateSchema(jobset, rules, errors);
  if (!errors->empty()) return;
  jobset_parts::ValidateCreate(jobset, rules, errors);
}

}  // namespace tjr::admission
