package dev.cairn.kit.operator;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.wire.DeadLetters;
import dev.cairn.kit.wire.KitRecord;
import java.util.Collection;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What of an operator subtask's input reaches its barrier aligner. Dropped before it:
 * <ul>
 *   <li>every record of a <em>retired</em> channel, an upstream subtask beyond the upstream parallelism now that the
 *       restored positions name (after the upstream task was rescaled down): what it wrote before its barrier is in
 *       the state, what it wrote after is written again by the upstream's new subtasks;</li>
 *   <li>the data records of the neighbours' key groups in a partition the subtask shares ({@link KeyGroupFilter}),
 *       counted; a misrouted one is sent to the dead letters by the one subtask that reports it.</li>
 * </ul>
 * A data record its channel's restored position says is reflected in the state already is not filtered: the aligner
 * drops it as replayed. Read again after restoring a snapshot of the release before key-group routing, it was routed
 * by that release, and is neither a neighbour's nor misrouted.
 * The task's loop thread owns it.
 */
final class InputGate {

    private final KeyGroupFilter filter;
    private Set<Channel> retired = Set.of();
    private InputPositions restored = InputPositions.NONE;
    private volatile long neighbours;

    InputGate(KeyGroupFilter filter) {
        this.filter = filter;
    }

    /**
     * From now on the records of {@code channels} are dropped, and the data records {@code positions} says are
     * reflected pass unfiltered (a restore names both anew).
     */
    void restored(InputPositions positions, Collection<Channel> channels) {
        restored = positions;
        retired = Set.copyOf(channels);
    }

    /** Whether the aligner gets {@code record}, read as {@code kind}; a malformed record is the task's to report. */
    boolean admits(ConsumerRecord<byte[], byte[]> record, KitRecord kind, DeadLetters deadLetters) {
        int from = from(kind);
        if (from >= 0 && !retired.isEmpty()
                && retired.contains(Channel.of(record.topic(), record.partition(), from))) {
            return false;
        }
        if (!(kind instanceof KitRecord.Data)
                || record.offset() <= restored.reflectedThrough(Channel.of(record.topic(), record.partition(), from))) {
            return true;
        }
        KeyGroupFilter.Verdict verdict = filter.of(record.key(), record.partition());
        if (verdict == KeyGroupFilter.Verdict.NEIGHBOURS) {
            neighbours++;
            return false;
        } else if (verdict == KeyGroupFilter.Verdict.MISROUTED) {
            deadLetters.send(record, "misrouted: " + filter.misrouted(record.key(), record.partition()));
            return false;
        }
        return true;
    }

    /** How many data records were dropped as the neighbours'. */
    long neighbours() {
        return neighbours;
    }

    /** The upstream subtask of a well-formed record; -1 for a malformed one. */
    private static int from(KitRecord kind) {
        if (kind instanceof KitRecord.Data data) {
            return data.from();
        } else if (kind instanceof KitRecord.Barrier barrier) {
            return barrier.from();
        } else if (kind instanceof KitRecord.Resume resume) {
            return resume.from();
        }
        return -1;
    }
}
