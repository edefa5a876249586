package dev.cairn.demo;

import dev.cairn.events.topics.CairnTopics;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.events.auth.SigningKey;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.sample.CounterWorker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo job's workers: one sample {@link CounterWorker} per subtask, each with a real {@link Sidecar}
 * beside it (in this JVM) that consumes {@code cairn.control} and publishes to {@code cairn.acks}.
 * {@code map-1} is slow and {@code sink-0} declines every third checkpoint.
 */
final class DemoWorkers implements AutoCloseable {

    /** One subtask of the demo job and how its worker behaves. */
    record Subtask(String taskId, int index, Duration slowness, int declineEvery) {
        String describe() {
            String behaviour = slowness.isZero() && declineEvery == 0 ? "prompt"
                    : !slowness.isZero() ? "slow (" + slowness.toMillis() + " ms per snapshot)"
                    : "declines every " + ordinal(declineEvery) + " checkpoint";
            return taskId + "-" + index + ": " + behaviour;
        }

        private static String ordinal(int n) {
            return n + (n == 2 ? "nd" : n == 3 ? "rd" : "th");
        }
    }

    static final List<Subtask> SUBTASKS = List.of(
            new Subtask("source", 0, Duration.ZERO, 0),
            new Subtask("map", 0, Duration.ZERO, 0),
            new Subtask("map", 1, Duration.ofMillis(700), 0),
            new Subtask("sink", 0, Duration.ZERO, 3));

    private final List<Sidecar> sidecars = new ArrayList<>();
    private final List<CounterWorker> workers = new ArrayList<>();

    /** Starts every worker and its sidecar; each sidecar registers its attempt before this returns. */
    static DemoWorkers start(String bootstrapServers, CairnTopics topics, String jobId, SigningKey jobKey,
            Path stateDir) {
        DemoWorkers demo = new DemoWorkers();
        for (Subtask subtask : SUBTASKS) {
            CounterWorker worker = new CounterWorker(stateDir, subtask.slowness(), subtask.declineEvery());
            demo.workers.add(worker);
            demo.sidecars.add(Sidecar.start(
                    SidecarConfig.forTask(bootstrapServers, jobId, subtask.taskId(), subtask.index())
                            .withTopics(topics)
                            .withSnapshotTimeout(Duration.ofSeconds(5))
                            .withAuthKey(jobKey),
                    worker));
        }
        return demo;
    }

    /** The value each worker's counter reached, in the order of {@link #SUBTASKS}. */
    List<Long> counters() {
        return workers.stream().map(CounterWorker::value).toList();
    }

    @Override
    public void close() throws Exception {
        for (Sidecar sidecar : sidecars) {
            sidecar.close();
        }
        for (CounterWorker worker : workers) {
            worker.close();
        }
    }
}
