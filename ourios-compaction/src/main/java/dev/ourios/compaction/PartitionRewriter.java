package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionPlan;
import java.io.IOException;

/**
 * The mechanism of a compaction: executes a plan's rewrite and publishes one invisible output. Never touches the
 * manifest; the committer decides whether the output becomes visible.
 */
public interface PartitionRewriter {
    RewriteResult rewrite(CompactionPlan plan) throws IOException;
}
