/**
 * How one large rewrite is split so that several workers can share it (docs/spec/storage.md, "Shares of a large
 * rewrite"): {@link dev.ourios.compaction.share.ShareSampler} fixes the
 * {@link dev.ourios.compaction.share.Shares}, ranges of the sort key cut at
 * {@link dev.ourios.compaction.share.ShareKey}s, from the inputs alone, and assigns them to workers. Uses the plan
 * package only.
 */
package dev.ourios.compaction.share;
