package dev.cairn.events.serde;

import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.TaskRoles;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Brings a record written with an older frozen schema to the current shape, once, where it is decoded
 * ({@link AvroEventSerde}, and the audit's journal decoder), so that no reader handles an old shape. In: a record
 * as Avro's schema resolution read it, a field its writer lacked holding the current schema's default. Out: the same
 * record, changed in place where that default is not what the old record meant:
 * <ul>
 *   <li>a version 1 {@link CheckpointTriggered} (a per-subtask {@code plan}, {@code acksExpected}
 *       -1) gets the acks its plan expects and the {@code roles} of its tasks whose roles are not the default; the
 *       plan stays, naming each subtask's attempt.</li>
 *   <li>a {@link CheckpointTriggered}, {@link CheckpointCompleted} or {@link CheckpointAborted} written before
 *       snapshot options existed (null {@code options}) gets the default options: FULL, CANONICAL, NONE, ALIGNED, no
 *       aligned timeout (Flink's defaults).</li>
 * </ul>
 * They apply to the event of a {@link ControlEnvelope} or a {@link JournalEnvelope} and to every completion of a
 * {@link RetainedCheckpoints}; every other record, and a record already in the current shape, passes unchanged.
 */
public final class RecordUpcaster {

    private RecordUpcaster() {
    }

    /** {@code record}, in the current shape (see the class comment); {@code null} stays {@code null}. */
    public static <T extends SpecificRecord> T upcast(T record) {
        if (record instanceof ControlEnvelope control) {
            event(control.getEvent());
        } else if (record instanceof JournalEnvelope journal) {
            event(journal.getEvent());
        } else if (record instanceof RetainedCheckpoints retained) {
            retained.getCheckpoints().forEach(RecordUpcaster::completed);
        }
        return record;
    }

    private static void event(Object event) {
        if (event instanceof CheckpointTriggered triggered) {
            triggered(triggered);
        } else if (event instanceof CheckpointCompleted completed) {
            completed(completed);
        } else if (event instanceof CheckpointAborted aborted) {
            aborted(aborted);
        }
    }

    /** A version 1 trigger's acks expected and roles, from its plan; the default options when it has none. */
    static void triggered(CheckpointTriggered e) {
        if (e.getAcksExpected() < 0) {
            e.setAcksExpected(e.getPlan().stream().filter(PlannedVertex::getAcknowledges)
                    .mapToInt(v -> v.getAttemptIds().size()).sum());
            List<TaskRoles> roles = new ArrayList<>();
            for (PlannedVertex v : e.getPlan()) {
                if (!(v.getTriggered() && v.getAcknowledges() && v.getNotified())) {
                    roles.add(new TaskRoles(v.getTaskId(), v.getTriggered(), v.getAcknowledges(), v.getNotified()));
                }
            }
            e.setRoles(roles);
        }
        if (e.getOptions() == null) {
            e.setOptions(SnapshotOptions.newBuilder().build());
        }
    }

    /** The default options of a completion that has none. */
    static void completed(CheckpointCompleted e) {
        if (e.getOptions() == null) {
            e.setOptions(SnapshotOptions.newBuilder().build());
        }
    }

    /** The default options of an abort that has none. */
    static void aborted(CheckpointAborted e) {
        if (e.getOptions() == null) {
            e.setOptions(SnapshotOptions.newBuilder().build());
        }
    }
}
