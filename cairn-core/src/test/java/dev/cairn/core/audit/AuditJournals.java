package dev.cairn.core.audit;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.decide.Decided;
import dev.cairn.core.events.Command;
import dev.cairn.core.events.EventFields;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;

/**
 * Journals for the audit's tests, written by the coordinator's own decider: job {@code orders} (source of
 * parallelism 2, sink of 1) completes checkpoint 1, aborts checkpoint 2 on a decline of source/1 and completes
 * checkpoint 3; job {@code billing} (one task) completes checkpoint 1 in between.
 */
public final class AuditJournals {

    public static final String ORDERS = "orders";
    public static final String BILLING = "billing";

    private final CheckpointDecider decider = new CheckpointDecider(CoordinatorSettings.DEFAULTS);
    private final CoordinatorState state = CoordinatorState.inMemory();
    private final List<SpecificRecord> events = new ArrayList<>();

    private AuditJournals() {
    }

    /** The events of both jobs, in the order the decider wrote them. */
    public static List<SpecificRecord> twoJobs() {
        AuditJournals j = new AuditJournals();
        j.decide(new Command.RegisterJob(spec(ORDERS, vertex("source", 2), vertex("sink", 1)), 0.0), 1_000);
        j.decide(new Command.RegisterJob(spec(BILLING, vertex("ledger", 1)), 0.0), 1_000);
        for (String[] subtask : new String[][] {{ORDERS, "source", "0"}, {ORDERS, "source", "1"}, {ORDERS, "sink", "0"},
                {BILLING, "ledger", "0"}}) {
            j.decide(new Command.StartTask(started(subtask[0], subtask[1], Integer.parseInt(subtask[2]))), 1_001);
        }
        j.decide(new Command.RequestTrigger(request(ORDERS, "r1")), 1_010);
        j.ack(ORDERS, 1, "source", 0, 1_020, 100);
        j.ack(ORDERS, 1, "source", 1, 1_021, 200);
        j.decide(new Command.RequestTrigger(request(BILLING, "b1")), 1_022);
        j.ack(BILLING, 1, "ledger", 0, 1_023, 50);
        j.ack(ORDERS, 1, "sink", 0, 1_030, 300);
        j.decide(new Command.RequestTrigger(request(ORDERS, "r2")), 1_100);
        j.ack(ORDERS, 2, "source", 0, 1_110, 100);
        j.decide(new Command.Decline(declined(ORDERS, 2, "source", 1)), 1_120);
        j.ack(ORDERS, 2, "sink", 0, 1_130, 300);
        j.decide(new Command.RequestTrigger(request(ORDERS, "r3")), 1_200);
        j.ack(ORDERS, 3, "source", 0, 1_210, 100);
        j.ack(ORDERS, 3, "source", 1, 1_211, 200);
        j.ack(ORDERS, 3, "sink", 0, 1_212, 300);
        return List.copyOf(j.events);
    }

    /** The records of {@code events} on partition 0, from offset 0, each keyed by its job. */
    public static List<JournalEntry> entries(List<SpecificRecord> events) {
        List<JournalEntry> entries = new ArrayList<>();
        for (SpecificRecord event : events) {
            entries.add(JournalEntry.of(0, entries.size(), 5_000 + entries.size(), EventFields.jobId(event), event));
        }
        return entries;
    }

    /** The index of the first event that matches. */
    public static int indexOf(List<SpecificRecord> events, Class<?> type, String jobId, long checkpointId) {
        for (int i = 0; i < events.size(); i++) {
            SpecificRecord e = events.get(i);
            if (type.isInstance(e) && EventFields.jobId(e).equals(jobId)
                    && EventFields.checkpointId(e) == checkpointId) {
                return i;
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " of checkpoint " + checkpointId + " of " + jobId);
    }

    /** A copy with the event at {@code index} replaced by what {@code change} makes of a copy of it. */
    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> List<SpecificRecord> changed(List<SpecificRecord> events, int index,
            UnaryOperator<T> change) {
        List<SpecificRecord> copy = new ArrayList<>(events);
        T original = (T) events.get(index);
        T clone = (T) org.apache.avro.specific.SpecificData.get().deepCopy(original.getSchema(), original);
        copy.set(index, change.apply(clone));
        return copy;
    }

    private void decide(Command command, long now) {
        Decided decided = decider.decide(command, state, now);
        events.addAll(decided.events());
        decided.applyTo(state);
    }

    private void ack(String jobId, long checkpointId, String taskId, int subtask, long now, long size) {
        decide(new Command.Acknowledge(ack(jobId, checkpointId, taskId, subtask, now, size, attempt(taskId, subtask))),
                now);
    }

    public static CheckpointAcknowledged ack(String jobId, long checkpointId, String taskId, int subtask, long at,
            long size, String attemptId) {
        return Events.ack(jobId, checkpointId, taskId, subtask, attemptId)
                .setStateHandle(Events.state("mem://" + jobId + "/" + checkpointId + "/" + taskId + "/" + subtask,
                        size))
                .setTimestampMs(at).build();
    }

    public static String attempt(String taskId, int subtask) {
        return taskId + "-" + subtask + "-a1";
    }

    public static JobSpec spec(String jobId, TaskVertex... vertices) {
        return Events.jobSpec(jobId).setTasks(List.of(vertices)).setConfig(Events.config(60_000, 50_000)
                .setTolerableFailures(5).setStorageBaseLocation("file:///checkpoints").build()).setTimestampMs(1_000)
                .build();
    }

    public static TaskVertex vertex(String taskId, int parallelism) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism).setTriggered(true)
                .setAcknowledges(true).setNotified(true).build();
    }

    private static TaskStarted started(String jobId, String taskId, int subtask) {
        return Events.taskStarted(jobId, taskId, subtask, attempt(taskId, subtask)).setTimestampMs(1_001).build();
    }

    private static TriggerRequest request(String jobId, String requestId) {
        return Events.triggerRequest(jobId, requestId).setType(CheckpointType.CHECKPOINT).setForce(false)
                .setTimestampMs(0).build();
    }

    private static CheckpointDeclined declined(String jobId, long checkpointId, String taskId, int subtask) {
        return Events.decline(jobId, checkpointId, taskId, subtask, attempt(taskId, subtask)).setMessage("disk full")
                .setTimestampMs(1_120).build();
    }
}
