package dev.cairn.bench.pipeline;

import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.kit.operator.KafkaOperatorTask;
import dev.cairn.kit.operator.KitTopicOutput;
import dev.cairn.kit.operator.OperatorFunction;
import dev.cairn.kit.operator.OperatorTaskConfig;
import dev.cairn.kit.task.KafkaSourceTask;
import dev.cairn.kit.task.SourceFunction;
import dev.cairn.pipeline.PipelineTask;
import dev.cairn.pipeline.PipelineTopology;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One job of the sample pipeline on the bench: its topics, its job spec registered with a signed request, and its
 * six subtasks (source x2, count x2, sink x2) in this JVM, each a kit task with a real embedded {@link Sidecar} that
 * signs what it sends with the job's key. {@link Mode#ON}: the sample pipeline as {@link PipelineTask} makes it,
 * checkpointed every {@code interval}, results committed by the write-ahead sink when a checkpoint completes.
 * {@link Mode#OFF}: the same source and count tasks and sidecars, a job whose interval and minimum pause are a day
 * (so no checkpoint is triggered during a run), and a last stage that is the same operator task with a
 * {@link KitTopicOutput} to the results topic in place of the sink: results written as they come, without
 * transactions. Closing cancels the job and closes the sidecars and tasks.
 */
final class PipelineRun implements AutoCloseable {

    /** With exactly-once checkpoints or without checkpoints. */
    enum Mode { ON, OFF }

    private static final Duration OFF_INTERVAL = Duration.ofDays(1);
    private static final Duration POLL = Duration.ofMillis(50);

    private final PipelineBed bed;
    private final PipelineTopology topology;
    private final Mode mode;
    private final List<Sidecar> sidecars = new ArrayList<>();
    private final List<SnapshotHook> hooks = new ArrayList<>();

    private PipelineRun(PipelineBed bed, PipelineTopology topology, Mode mode) {
        this.bed = bed;
        this.topology = topology;
        this.mode = mode;
    }

    /**
     * Creates the topics, registers the job and starts its subtasks (each start returns once its sidecar handed it
     * the restore point and its attempt is registered); with checkpoints, waits until the first one completed, so
     * that the pipeline runs when the input starts.
     */
    static PipelineRun start(PipelineBed bed, String jobId, Mode mode, Duration interval) {
        PipelineRun run = new PipelineRun(bed, new PipelineTopology(jobId), mode);
        try {
            run.startJob(interval);
            return run;
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    private void startJob(Duration interval) {
        try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bed.bootstrap()))) {
            topology.createTopics(admin, (short) 1);
        }
        bed.send(new ProducerRecord<>(bed.topics().requests(), topology.jobId(),
                new RequestEnvelope(jobSpec(interval))));
        bed.journal().awaitAccepted(topology.jobId(), PipelineBed.WAIT);
        Map<String, Object> clients = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bed.bootstrap());
        for (String role : List.of(PipelineTopology.SINK, PipelineTopology.COUNT, PipelineTopology.SOURCE)) {
            for (int subtask = 0; subtask < PipelineTopology.PARALLELISM; subtask++) {
                SnapshotHook hook = hook(role, subtask, clients);
                hooks.add(hook);
                sidecars.add(Sidecar.start(SidecarConfig.forTask(bed.bootstrap(), topology.jobId(), role, subtask)
                        .withTopics(bed.topics()).withAuthKey(bed.jobKey(topology.jobId())), hook));
            }
        }
        if (mode == Mode.ON) {
            bed.journal().awaitCompleted(topology.jobId(), 1, PipelineBed.WAIT);
        }
    }

    private SnapshotHook hook(String role, int subtask, Map<String, Object> clients) {
        if (mode == Mode.OFF && role.equals(PipelineTopology.SINK)) {
            return new KafkaOperatorTask(new OperatorTaskConfig(role, subtask, PipelineTopology.PARALLELISM,
                    PipelineTopology.PARALLELISM, topology.countsTopic(), clients, POLL), identity(),
                    new KitTopicOutput(topology.resultsTopic(), subtask, clients));
        }
        return PipelineTask.create(topology, role, subtask, clients).hook();
    }

    private static OperatorFunction identity() {
        return (key, value, state) -> List.of(new SourceFunction.Output(key, value));
    }

    private JobSpec jobSpec(Duration interval) {
        JobSpec spec = topology.jobSpec(bed.checkpointDir());
        CheckpointConfig.Builder config = CheckpointConfig.newBuilder(spec.getConfig());
        if (mode == Mode.ON) {
            config.setIntervalMs(interval.toMillis());
        } else {
            config.setIntervalMs(OFF_INTERVAL.toMillis()).setMinPauseMs(OFF_INTERVAL.toMillis());
        }
        return JobSpec.newBuilder(spec).setConfig(config.build()).build();
    }

    PipelineTopology topology() {
        return topology;
    }

    Mode mode() {
        return mode;
    }

    /** Throws when a subtask or its sidecar stopped working. */
    void check() {
        for (int i = 0; i < hooks.size(); i++) {
            Optional<Throwable> failure = hooks.get(i) instanceof KafkaSourceTask source ? source.failure()
                    : ((KafkaOperatorTask) hooks.get(i)).failure();
            if (failure.isPresent()) {
                throw new IllegalStateException(topology.jobId() + ": a subtask failed: " + failure.get(),
                        failure.get());
            }
            if (!sidecars.get(i).isRunning()) {
                throw new IllegalStateException(topology.jobId() + ": a sidecar stopped consuming control events");
            }
        }
    }

    /** Checkpoints of the job completed and aborted so far, as the journal shows them now. */
    int[] checkpoints() {
        bed.journal().readToEnd();
        return new int[] {bed.journal().completed(topology.jobId()), bed.journal().aborted(topology.jobId())};
    }

    @Override
    public void close() {
        try {
            bed.send(new ProducerRecord<>(bed.topics().requests(), topology.jobId(), new RequestEnvelope(
                    JobStatusChange.newBuilder().setJobId(topology.jobId()).setStatus(JobStatus.CANCELED)
                            .setTimestampMs(System.currentTimeMillis()).build())));
        } catch (RuntimeException e) {
            System.err.println("could not cancel " + topology.jobId() + ": " + e);
        }
        sidecars.forEach(Sidecar::close);
        for (SnapshotHook hook : hooks) {
            try {
                hook.close();
            } catch (Exception e) {
                System.err.println("closing a task of " + topology.jobId() + " failed: " + e);
            }
        }
    }
}
