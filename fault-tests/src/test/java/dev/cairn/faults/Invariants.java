package dev.cairn.faults;

import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants of a fault run, read from the topics a {@link TopicRecorder} has read (the journal is the
 * coordinator's record of what it decided and accepted; the acks topic is what sidecars sent): checkpoint ids
 * never reused per job, no checkpoint completed twice (or both completed and aborted), no ack accepted twice,
 * no checkpoint left pending, and every ack sent accounted for (accepted, discarded or rejected).
 */
final class Invariants {

    /** The counts behind the invariants and every violation found (empty when they all hold). */
    record Report(int triggered, int completed, int aborted, int acksSent, int acksAccepted, int acksDiscarded,
            List<String> violations) {

        String describe() {
            return String.format("invariants: %d triggered, %d completed, %d aborted; %d acks sent, %d accepted, "
                    + "%d discarded; %s", triggered, completed, aborted, acksSent, acksAccepted, acksDiscarded,
                    violations.isEmpty() ? "ALL HOLD (ids never reused, nothing completed twice, no ack accepted "
                            + "twice, no orphaned checkpoint, every ack accounted for)" : "VIOLATED: " + violations);
        }
    }

    private Invariants() {
    }

    /** Checks everything recorded so far; call once the jobs are suspended and every checkpoint has ended. */
    static Report check(TopicRecorder recorded) {
        String journal = recorded.topics().journal();
        List<String> violations = new ArrayList<>();

        List<CheckpointTriggered> triggered = recorded.events(journal, CheckpointTriggered.class, e -> true);
        Set<String> triggeredIds = new HashSet<>();
        triggered.forEach(t -> unique(triggeredIds, t.getJobId() + "/" + t.getCheckpointId(), "checkpoint id reused",
                violations));

        Set<String> ended = new HashSet<>();
        List<CheckpointCompleted> completed = recorded.events(journal, CheckpointCompleted.class, e -> true);
        completed.forEach(c -> unique(ended, c.getJobId() + "/" + c.getCheckpointId(), "checkpoint ended twice",
                violations));
        List<CheckpointAborted> aborted = recorded.events(journal, CheckpointAborted.class, e -> true);
        aborted.forEach(a -> unique(ended, a.getJobId() + "/" + a.getCheckpointId(), "checkpoint ended twice",
                violations));
        triggeredIds.stream().filter(id -> !ended.contains(id)).sorted()
                .forEach(id -> violations.add("orphaned (never completed nor aborted): " + id));

        Set<String> accepted = new HashSet<>();
        List<CheckpointAcknowledged> acceptedAcks = recorded.events(journal, CheckpointAcknowledged.class, e -> true);
        acceptedAcks.forEach(a -> unique(accepted, a.getJobId() + "/" + a.getCheckpointId() + "/" + a.getTaskId() + "-"
                + a.getSubtaskIndex(), "ack accepted twice", violations));

        Map<String, Integer> outcomes = new HashMap<>();
        acceptedAcks.forEach(a -> outcomes.merge(ackKey(a), 1, Integer::sum));
        List<AckDiscarded> discarded = recorded.events(journal, AckDiscarded.class, e -> true);
        discarded.forEach(d -> outcomes.merge(d.getJobId() + "/" + d.getCheckpointId() + "/" + d.getTaskId() + "-"
                + d.getSubtaskIndex() + "/" + d.getAttemptId(), 1, Integer::sum));
        long rejectedAcks = recorded.events(journal, CommandRejected.class,
                r -> r.getCommandType().equals("Acknowledge")).size();
        List<CheckpointAcknowledged> sent = recorded.events(recorded.topics().acks(), CheckpointAcknowledged.class,
                e -> true);
        long unaccounted = 0;
        for (CheckpointAcknowledged ack : sent) {
            if (outcomes.merge(ackKey(ack), -1, Integer::sum) < 0) {
                unaccounted++;
            }
        }
        if (unaccounted > rejectedAcks) {
            violations.add((unaccounted - rejectedAcks) + " acks sent but neither accepted, discarded nor rejected");
        }
        return new Report(triggered.size(), completed.size(), aborted.size(), sent.size(), acceptedAcks.size(),
                discarded.size(), violations);
    }

    private static String ackKey(CheckpointAcknowledged a) {
        return a.getJobId() + "/" + a.getCheckpointId() + "/" + a.getTaskId() + "-" + a.getSubtaskIndex() + "/"
                + a.getAttemptId();
    }

    private static void unique(Set<String> seen, String key, String what, List<String> violations) {
        if (!seen.add(key)) {
            violations.add(what + ": " + key);
        }
    }
}
