package dev.cairn.bench.audit;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.decide.Decided;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * A journal as the coordinator writes it, made by its own decider: {@code jobs} jobs of one vertex of
 * {@code subtasks} subtasks register and start, then checkpoint round after round (one request per job, every
 * subtask acks with a 100-byte location and 36-character attempt ids, every tenth checkpoint of a job is declined
 * instead by its last subtask), until at least {@code events} events were written. Events are handed on round by
 * round, so a journal of millions of events is never held in memory. Job ids are 32 hex digits of 1, 2, ...; a
 * workload that must fill only some partitions of a topic skips the ids that the job id filter refuses.
 */
final class JournalWorkload {

    private final CheckpointDecider decider = new CheckpointDecider(CoordinatorSettings.DEFAULTS);
    private final CoordinatorState state = CoordinatorState.inMemory();
    private final int jobs;
    private final int subtasks;
    private final Predicate<String> jobIdFilter;
    private final List<String> jobIds = new ArrayList<>();
    private final List<String> attempts = new ArrayList<>();
    private final String location = "s3://cairn-benchmark/" + "x".repeat(60) + "/";
    private long now = 1_000;

    JournalWorkload(int jobs, int subtasks) {
        this(jobs, subtasks, jobId -> true);
    }

    /** @param jobIdFilter which job ids the workload may use (e.g. those of one partition, {@code JobPartitions}) */
    JournalWorkload(int jobs, int subtasks, Predicate<String> jobIdFilter) {
        this.jobs = jobs;
        this.subtasks = subtasks;
        this.jobIdFilter = jobIdFilter;
        for (int i = 0; i < subtasks; i++) {
            attempts.add(UUID.nameUUIDFromBytes(("attempt-" + i).getBytes()).toString());
        }
    }

    /** Writes at least {@code events} events to {@code sink}, each with its job id; returns how many it wrote. */
    long write(long events, Consumer<SpecificRecord> sink) {
        long[] written = {0};
        Consumer<SpecificRecord> counting = event -> {
            written[0]++;
            sink.accept(event);
        };
        for (long n = 1; jobIds.size() < jobs; n++) {
            String jobId = String.format("%032x", n);
            if (!jobIdFilter.test(jobId)) {
                continue;
            }
            jobIds.add(jobId);
            decide(new Command.RegisterJob(spec(jobId), 0.0), counting);
            for (int s = 0; s < subtasks; s++) {
                decide(new Command.StartTask(TaskStarted.newBuilder().setJobId(jobId).setTaskId("vertex-0")
                        .setSubtaskIndex(s).setAttemptId(attempts.get(s)).setTimestampMs(now).build()), counting);
            }
        }
        for (long round = 1; written[0] < events; round++) {
            for (String jobId : jobIds) {
                decide(new Command.RequestTrigger(TriggerRequest.newBuilder().setJobId(jobId)
                        .setRequestId("r-" + round).setType(CheckpointType.CHECKPOINT).setForce(false)
                        .setRequester("bench").setTimestampMs(now).build()), counting);
            }
            for (String jobId : jobIds) {
                long id = state.job(jobId).orElseThrow().getNextCheckpointId() - 1;
                boolean decline = round % 10 == 0;
                for (int s = 0; s < subtasks; s++) {
                    if (decline && s == subtasks - 1) {
                        decide(new Command.Decline(dev.cairn.events.CheckpointDeclined.newBuilder().setJobId(jobId)
                                .setCheckpointId(id).setTaskId("vertex-0").setSubtaskIndex(s)
                                .setAttemptId(attempts.get(s)).setMessage("benchmark declines")
                                .setReason(dev.cairn.events.CheckpointFailureReason.CHECKPOINT_DECLINED)
                                .setTimestampMs(now).build()), counting);
                    } else {
                        decide(new Command.Acknowledge(ack(jobId, id, s)), counting);
                    }
                }
            }
        }
        return written[0];
    }

    private CheckpointAcknowledged ack(String jobId, long id, int subtask) {
        return CheckpointAcknowledged.newBuilder().setJobId(jobId).setCheckpointId(id).setTaskId("vertex-0")
                .setSubtaskIndex(subtask).setAttemptId(attempts.get(subtask))
                .setStateHandle(StateHandle.newBuilder().setLocation(location + String.format("%010d", id))
                        .setSizeBytes(4096).build())
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(5).build())
                .setTimestampMs(now).build();
    }

    private void decide(Command command, Consumer<SpecificRecord> sink) {
        now++;
        Decided decided = decider.decide(command, state, now);
        decided.applyTo(state);
        decided.events().forEach(sink);
    }

    private JobSpec spec(String jobId) {
        return JobSpec.newBuilder().setJobId(jobId)
                .setTasks(List.of(TaskVertex.newBuilder().setTaskId("vertex-0").setParallelism(subtasks).build()))
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(3_600_000).setTimeoutMs(3_600_000)
                        .setMinPauseMs(0).setMaxConcurrent(1).setTolerableFailures(1_000_000).setRetained(1)
                        .setStorageBaseLocation("s3://cairn-benchmark").build())
                .setTimestampMs(0).build();
    }
}
