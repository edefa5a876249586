package dev.cairn.pipeline;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * SIGKILLs of random workers at random moments: kill {@code i} of {@code count} falls at a random moment of the
 * {@code i}-th equal slice of {@code window} (so that kills are spread and a worker has time to come back between
 * two), and hits a random subtask of a task taken in a random order (every task once before any twice). Which and when
 * come from {@code seed}, printed for a replay.
 */
final class KillSchedule implements AutoCloseable {

    /** One kill: when it is due after the start, and whom it hits. */
    record Kill(Duration after, String role, int subtask) {}

    private final List<Kill> kills = new ArrayList<>();
    private final List<Instant> done = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    KillSchedule(long seed, int count, Duration window) {
        Random random = new Random(seed);
        List<String> roles = new ArrayList<>(PipelineTopology.tasks());
        Collections.shuffle(roles, random);
        long slice = window.toMillis() / Math.max(1, count);
        for (int i = 0; i < count; i++) {
            long at = i * slice + slice / 5 + (long) (random.nextDouble() * slice * 3 / 5);
            String role = roles.get(i % roles.size());
            kills.add(new Kill(Duration.ofMillis(at), role, random.nextInt(PipelineTopology.PARALLELISM)));
        }
    }

    List<Kill> kills() {
        return List.copyOf(kills);
    }

    /** Starts the timer: each kill is carried out on {@code workers} when due. */
    void start(PipelineProcesses workers) {
        if (kills.isEmpty()) {
            finished.complete(null);
        }
        for (Kill kill : kills) {
            timer.schedule(() -> {
                try {
                    workers.kill(kill.role(), kill.subtask());
                    record();
                } catch (RuntimeException e) {
                    finished.completeExceptionally(e);
                }
            }, kill.after().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void record() {
        done.add(Instant.now());
        if (done.size() == kills.size()) {
            finished.complete(null);
        }
    }

    /** Whether every kill was carried out (a failed one throws). */
    boolean finished() {
        if (finished.isCompletedExceptionally()) {
            finished.join();
        }
        return finished.isDone();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
