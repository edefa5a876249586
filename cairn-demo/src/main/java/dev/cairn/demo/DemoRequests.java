package dev.cairn.demo;

import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The demo's savepoints, stops and resume, asked for with the {@code cairn} command line ({@link DemoCli}) as a user
 * asks for them, their outcomes read from the journal ({@link DemoJournal}). Savepoints are written to the demo's
 * storage ({@link DemoStorage}).
 */
final class DemoRequests {

    /** How many times a stop that failed is asked for again. */
    static final int STOP_ATTEMPTS = 3;
    private static final Duration OUTCOME_WAIT = Duration.ofSeconds(30);

    private final PrintStream out;
    private final String jobId;
    private final DemoCli cli;
    private final DemoJournal journal;
    private final Function<String, String> savepoints;

    /**
     * A stop-with-savepoint that completed.
     *
     * @param checkpointId the savepoint's checkpoint id
     * @param location where it was written
     */
    record Stopped(long checkpointId, String location) {}

    /** Requests for {@code jobId}, whose savepoint {@code name} goes where {@code savepoints} says. */
    DemoRequests(PrintStream out, String jobId, DemoCli cli, DemoJournal journal,
            Function<String, String> savepoints) {
        this.out = out;
        this.jobId = jobId;
        this.cli = cli;
        this.journal = journal;
        this.savepoints = savepoints;
    }

    /** Asks for a savepoint ({@code cairn trigger --savepoint}) and waits for its outcome; answers it, if any. */
    Optional<RequestOutcome> savepoint(String name) {
        String requestId = "savepoint-" + UUID.randomUUID().toString().substring(0, 8);
        if (cli.run("trigger", "--job", jobId, "--savepoint", "--target", target(name), "--request-id", requestId)
                != 0) {
            return Optional.empty();
        }
        return outcome(requestId);
    }

    /**
     * Stops the job with a savepoint ({@code cairn stop --detached}, with {@code --drain} when {@code drain}; the demo
     * follows the outcome in the journal itself). A stop can fail (a
     * restarted subtask that has not caught up declines it): then the job keeps running, periodic checkpointing
     * resumes, and the demo asks again, at most {@link #STOP_ATTEMPTS} times.
     *
     * @return the stop's savepoint, once it completed and the job is FINISHED
     */
    Optional<Stopped> stop(boolean drain, String name) {
        for (int attempt = 1; attempt <= STOP_ATTEMPTS; attempt++) {
            String requestId = name + "-" + attempt + "-" + UUID.randomUUID().toString().substring(0, 8);
            String target = target(name + "-" + attempt);
            List<String> args = new ArrayList<>(List.of("stop", "--job", jobId, "--target", target, "--request-id",
                    requestId));
            if (drain) {
                args.add("--drain");
            }
            args.add("--detached");
            if (cli.run(args.toArray(String[]::new)) != 0) {
                return Optional.empty();
            }
            Optional<RequestOutcome> outcome = outcome(requestId);
            if (outcome.isEmpty()) {
                out.println("The stop-with-savepoint got no outcome within " + OUTCOME_WAIT + ".");
                return Optional.empty();
            }
            if (outcome.get().getStatus() == RequestStatus.COMPLETED) {
                boolean finished = journal.followUntil(event -> event instanceof JobStatusChange c
                        && c.getJobId().equals(jobId) && c.getStatus() == JobStatus.FINISHED, OUTCOME_WAIT);
                long id = outcome.get().getCheckpointId();
                out.println(finished ? "Stopped the job with savepoint " + id + (drain ? " after the tasks drained"
                        : ", the tasks stopped where they were") + ": the job is FINISHED and periodic triggering "
                        + "stopped." : "The stop-with-savepoint completed, but the job never became FINISHED.");
                return finished ? Optional.of(new Stopped(id, target)) : Optional.empty();
            }
            out.println("The stop-with-savepoint failed (" + outcome.get().getReason() + "): the job keeps running "
                    + "and periodic checkpointing resumes" + (attempt < STOP_ATTEMPTS ? "; asking again." : "."));
        }
        return Optional.empty();
    }

    /**
     * Rescales the running job's {@code task} to {@code parallelism} ({@code cairn rescale}): the coordinator stops it
     * with a savepoint and resumes it from that savepoint with the new parallelism; the command waits for that. A
     * rescale whose stop failed (a restarted subtask that has not caught up declines it) leaves the job running with
     * its parallelism, and the demo asks again, at most {@link #STOP_ATTEMPTS} times.
     *
     * @return the savepoint the job resumed from with the new parallelism
     */
    Optional<Stopped> rescale(String task, int parallelism) {
        for (int attempt = 1; attempt <= STOP_ATTEMPTS; attempt++) {
            String requestId = "rescale-" + attempt + "-" + UUID.randomUUID().toString().substring(0, 8);
            String target = target("rescale-" + attempt);
            cli.run("rescale", "--job", jobId, "--parallelism", task + "=" + parallelism, "--target", target,
                    "--request-id", requestId);
            Optional<RequestOutcome> outcome = outcome(requestId);
            if (outcome.isPresent() && outcome.get().getStatus() == RequestStatus.COMPLETED) {
                return Optional.of(new Stopped(outcome.get().getCheckpointId(), target));
            }
            out.println("The rescale failed (" + outcome.map(o -> o.getReason() + ": " + o.getMessage())
                    .orElse("no outcome within " + OUTCOME_WAIT) + ")" + (attempt < STOP_ATTEMPTS
                    ? "; the job keeps running with its parallelism, asking again." : "."));
        }
        return Optional.empty();
    }

    /** Resumes the stopped job from the savepoint at {@code location} ({@code cairn resume --from-savepoint}). */
    boolean resume(String location) {
        return cli.run("resume", "--job", jobId, "--from-savepoint", location) == 0;
    }

    /** Lists the job's savepoints and its restore point ({@code cairn savepoint list}). */
    boolean listSavepoints() {
        return cli.run("savepoint", "list", "--job", jobId) == 0;
    }

    private String target(String name) {
        return savepoints.apply(name);
    }

    private Optional<RequestOutcome> outcome(String requestId) {
        RequestOutcome[] outcome = new RequestOutcome[1];
        journal.followUntil(event -> {
            if (event instanceof RequestOutcome o && o.getRequestId().equals(requestId)
                    && o.getStatus() != RequestStatus.TRIGGERED) {
                outcome[0] = o;
                return true;
            }
            return false;
        }, OUTCOME_WAIT);
        return Optional.ofNullable(outcome[0]);
    }
}
