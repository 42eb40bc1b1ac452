#pragma once

#include "doc/node.h"

namespace tjr::render {

/// Trainer's apply.Upsert* (spec §1.7): each item replaces, whole and in
/// place, the first element of `*list` it matches, or is appended. `*list`
/// becomes a sequence if it was absent/null.
void UpsertEnvVars(doc::Node* list, const doc::Node& items);        ///< match: name
void UpsertVolumes(doc::Node* list, const doc::Node& items);        ///< match: name
void UpsertVolumeMounts(doc::Node* list, const doc::Node& items);   ///< match: mountPath
/// Match: equal containerPort, or equal name where two absent names are equal.
void UpsertPorts(doc::Node* list, const doc::Node& items);

/// apply.EnvVar: the apply configuration Trainer builds from a TrainJob
/// corev1.EnvVar (already in typed JSON form): `value` always set ("" when
/// absent) unless valueFrom is set; valueFrom keeps fieldRef.fieldPath,
/// resourceFieldRef {containerName, resource, divisor} (divisor "0" when
/// zero), configMapKeyRef/secretKeyRef {key, name, optional?}.
doc::Node ConvertEnvVar(const doc::Node& env);
/// ConvertEnvVar over a list (null/absent: empty sequence).
doc::Node ConvertEnvVars(const doc::Node* envs);

/// {name, value} as corev1ac.EnvVar().WithName().WithValue() builds it.
doc::Node EnvValue(std::string name, std::string value);

}  // namespace tjr::render
