package dev.cairn.faults;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateDiscarded;
import dev.cairn.pipeline.PipelineTopology;
import dev.cairn.s3.S3ProxyServer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the objects left in a pipeline's bucket are, once its job ended, by what the coordinator knows of them (the
 * acknowledgements on {@code cairn.acks}, the discards in the journal): <b>kept</b>, acknowledged and never discarded
 * (the retained checkpoints' states and the shared objects they refer to); <b>not deleted</b>, discarded but still
 * there (a worker that did not get, or did not carry out, the discard); <b>orphaned</b>, never acknowledged (written by
 * a worker that stopped before its acknowledgement was sent), which nothing will ever discard. A sink's output part
 * counts as the operator state beside it does.
 *
 * @param kept acknowledged, not discarded
 * @param notDeleted discarded, still there
 * @param orphaned never acknowledged
 * @param orphans the keys of up to {@link #LISTED} orphans
 */
record StorageAudit(int kept, int notDeleted, int orphaned, List<String> orphans) {

    static final int LISTED = 10;
    private static final Pattern SINK_PART = Pattern.compile("(.*/)sink-.+-(\\d+)\\.state");

    /** The audit of what {@code pipeline}'s bucket holds of its job now. */
    static StorageAudit of(ChaosPipeline pipeline, FaultCluster cluster) {
        S3ProxyServer server = pipeline.storage.s3().orElseThrow();
        Set<String> acknowledged = new HashSet<>();
        for (CheckpointAcknowledged ack : cluster.recorder.events(cluster.topics.acks(),
                CheckpointAcknowledged.class, a -> a.getJobId().equals(pipeline.jobId))) {
            acknowledged.add(ack.getStateHandle().getLocation());
            ack.getStateHandle().getShared().stream().map(SharedState::getLocation).forEach(acknowledged::add);
        }
        Set<String> discarded = new HashSet<>();
        for (StateDiscarded discard : cluster.recorder.events(cluster.topics.journal(), StateDiscarded.class,
                d -> d.getJobId().equals(pipeline.jobId))) {
            discard.getObjects().stream().map(DiscardedObject::getLocation).forEach(discarded::add);
        }
        int kept = 0;
        int notDeleted = 0;
        List<String> orphans = new ArrayList<>();
        for (String key : server.keys(pipeline.storage.jobPrefix(pipeline.jobId))) {
            String owner = owner(server.location(key));
            if (discarded.contains(owner)) {
                notDeleted++;
            } else if (acknowledged.contains(owner)) {
                kept++;
            } else {
                orphans.add(key);
            }
        }
        return new StorageAudit(kept, notDeleted, orphans.size(), orphans.stream().limit(LISTED).toList());
    }

    /**
     * The acknowledged location {@code location} belongs to: a sink's output part
     * ({@code .../sink-<sink id>-<subtask>.state}) to its operator state beside it
     * ({@code .../operator-sink-<subtask>.state}), any other object to itself.
     */
    private static String owner(String location) {
        Matcher part = SINK_PART.matcher(location);
        return part.matches() ? part.group(1) + "operator-" + PipelineTopology.SINK + "-" + part.group(2) + ".state"
                : location;
    }

    @Override
    public String toString() {
        return String.format("%d kept (acknowledged, not discarded), %d discarded but not deleted, %d orphaned (never "
                + "acknowledged)%s", kept, notDeleted, orphaned, orphans.isEmpty() ? "" : ": " + orphans);
    }
}
