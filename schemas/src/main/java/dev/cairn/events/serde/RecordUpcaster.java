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
import org.apache.avro.specific.SpecificRecord;

/**
 * Brings a record written with an older frozen schema to the current shape where it is decoded ({@link AvroEventSerde},
 * the audit's {@code JournalDecoder}), so that readers know only the current shape. In: a record as Avro's schema
 * resolution read it, a field its writer lacked holding its default. Out: the same record, changed in place where that
 * default is not what the old record meant (a record in the current shape passes unchanged): a version 1
 * {@link CheckpointTriggered} ({@code acksExpected} -1) gets the acks its plan expects and the roles of its tasks whose
 * roles are not the default (the plan stays, naming each subtask's attempt); a trigger, {@link CheckpointCompleted} or
 * {@link CheckpointAborted} written before snapshot options existed gets the default options (Flink's). Applied to the
 * event of a control or journal envelope and to the completions of a {@link RetainedCheckpoints}.
 */
public final class RecordUpcaster {

    private RecordUpcaster() {
    }

    /** {@code record} (an envelope or a state record of any topic) in the current shape. */
    public static <T extends SpecificRecord> T upcast(T record) {
        Object event = record instanceof ControlEnvelope c ? c.getEvent()
                : record instanceof JournalEnvelope j ? j.getEvent() : null;
        if (event instanceof CheckpointTriggered e) {
            triggered(e);
        } else if (event instanceof CheckpointCompleted e) {
            e.setOptions(options(e.getOptions()));
        } else if (event instanceof CheckpointAborted e) {
            e.setOptions(options(e.getOptions()));
        } else if (record instanceof RetainedCheckpoints retained) {
            retained.getCheckpoints().forEach(c -> c.setOptions(options(c.getOptions())));
        }
        return record;
    }

    private static void triggered(CheckpointTriggered e) {
        if (e.getAcksExpected() < 0) {
            e.setAcksExpected(e.getPlan().stream().filter(PlannedVertex::getAcknowledges)
                    .mapToInt(v -> v.getAttemptIds().size()).sum());
            e.setRoles(e.getPlan().stream().filter(v -> !(v.getTriggered() && v.getAcknowledges() && v.getNotified()))
                    .map(v -> new TaskRoles(v.getTaskId(), v.getTriggered(), v.getAcknowledges(), v.getNotified()))
                    .toList());
        }
        e.setOptions(options(e.getOptions()));
    }

    private static SnapshotOptions options(SnapshotOptions written) {
        return written != null ? written : SnapshotOptions.newBuilder().build();
    }
}
