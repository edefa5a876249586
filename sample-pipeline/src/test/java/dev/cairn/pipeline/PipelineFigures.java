package dev.cairn.pipeline;

import dev.cairn.events.CheckpointCompleted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The figures of a pipeline run read from the supervisor's events and the coordinator's completed checkpoints: for
 * each kill, when the supervisor started the worker again and when the job recovered, that is when it next
 * completed a checkpoint triggered after the new process started (every subtask's new attempt acked it).
 */
final class PipelineFigures {

    /**
     * One kill's recovery; {@code recovered} is empty when no such checkpoint completed; {@code overlapped}: another
     * kill came before the job recovered, so the time covers both.
     */
    record Recovery(String worker, Instant killed, Optional<Instant> restarted, Optional<Instant> recovered,
            boolean overlapped) {

        @Override
        public String toString() {
            return worker + " killed at " + killed + ": restarted after "
                    + restarted.map(at -> Duration.between(killed, at).toMillis() + " ms").orElse("(never)")
                    + ", job recovered (a checkpoint triggered after the restart completed) after "
                    + recovered.map(at -> Duration.between(killed, at).toMillis() + " ms").orElse("(never)")
                    + (overlapped ? " (another kill came before it recovered)" : "");
        }
    }

    private PipelineFigures() {
    }

    /** The recovery of every kill among {@code events}, given the job's completed checkpoints. */
    static List<Recovery> recoveries(List<PipelineProcesses.Event> events, List<CheckpointCompleted> completed) {
        List<Recovery> recoveries = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            PipelineProcesses.Event kill = events.get(i);
            if (kill.kind() != PipelineProcesses.Kind.KILLED) {
                continue;
            }
            Optional<Instant> restarted = events.subList(i, events.size()).stream()
                    .filter(e -> e.worker().equals(kill.worker()) && e.kind() == PipelineProcesses.Kind.STARTED)
                    .map(PipelineProcesses.Event::at).findFirst();
            Optional<Instant> recovered = restarted.flatMap(start -> completed.stream()
                    .filter(c -> c.getTriggerTimestampMs() >= start.toEpochMilli())
                    .map(c -> Instant.ofEpochMilli(c.getCompletionTimestampMs())).min(Instant::compareTo));
            Instant end = recovered.orElse(Instant.MAX);
            boolean overlapped = events.stream().anyMatch(e -> e.kind() == PipelineProcesses.Kind.KILLED
                    && e.at().isAfter(kill.at()) && e.at().isBefore(end));
            recoveries.add(new Recovery(kill.worker(), kill.at(), restarted, recovered, overlapped));
        }
        return recoveries;
    }
}
