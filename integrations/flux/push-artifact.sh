#!/usr/bin/env bash
# Render in CI and publish the result as an OCI artifact for Flux
# (OCIRepository + Kustomization). Same commit, same bytes, same digest:
# render --out is deterministic and --reproducible fixes the created time.
# usage: push-artifact.sh oci://ghcr.io/ORG/ml/trainjobs [REPO_DIR]
set -euo pipefail
artifact=$1
repo=${2:-.}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
umask 022                      # the same file modes on every runner
tjrender check "$repo"         # fail before publishing anything
# Flux applies the objects without their TrainJob: no ownerReferences to it.
tjrender render "$repo" --for-apply --out "$out/rendered"
flux push artifact "$artifact:$(git -C "$repo" rev-parse --short HEAD)" \
  --path="$out/rendered" \
  --source="$(git -C "$repo" config --get remote.origin.url)" \
  --revision="$(git -C "$repo" branch --show-current)@sha1:$(git -C "$repo" rev-parse HEAD)" \
  --reproducible
