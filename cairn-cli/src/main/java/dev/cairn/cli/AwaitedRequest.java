package dev.cairn.cli;

import dev.cairn.client.requests.RequestSender.Delivery;
import dev.cairn.client.requests.SendFailedException;
import dev.cairn.client.rest.CairnClient;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TriggerRequest;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A request whose outcome the command waits for ({@code cairn resume}, {@code rescale}, {@code remove},
 * {@code savepoint}, {@code savepoint dispose}, {@code stop}, {@code trigger --wait}), sent over Kafka or, with
 * {@code --rest-url}, the REST API ({@link RestRequests}). Over Kafka the journal is watched from its end, the
 * request is produced, and the coordinator's {@code RequestOutcome} with its id is awaited; over REST the request
 * is POSTed and {@code GET /jobs/{jobId}/savepoints/{requestId}} polled, a progress bar of the checkpoint's
 * acknowledgements on stderr when it is a terminal (or {@code --progress}). Exit code 0 when it COMPLETED, 1 when
 * it FAILED or no outcome came within the wait; with a wait of 0 it only sends.
 *
 * @param jobId the job
 * @param requestId the request's id
 * @param envelope the request
 * @param what what it asks for, for the output
 * @param completed what a COMPLETED outcome means, for the output, given the outcome and the checkpoint's location
 *     ({@code null} when not known)
 */
record AwaitedRequest(String jobId, String requestId, RequestEnvelope envelope, String what,
        BiFunction<RequestOutcome, String, String> completed) {

    /** A request whose completion says nothing of a location. */
    AwaitedRequest(String jobId, String requestId, RequestEnvelope envelope, String what,
            Function<RequestOutcome, String> completed) {
        this(jobId, requestId, envelope, what, (outcome, location) -> completed.apply(outcome));
    }

    int send(CairnCli cli, CommandSpec command, long waitMs) {
        return send(cli, command, waitMs, false);
    }

    /** Sends, and waits up to {@code waitMs} (0: not at all); {@code progress} draws the bar even off a terminal. */
    int send(CairnCli cli, CommandSpec command, long waitMs, boolean progress) {
        Optional<CairnClient> rest = cli.restClient(command);
        if (rest.isPresent()) {
            return viaRest(command, rest.get(), waitMs, progress);
        }
        return viaKafka(cli, command, waitMs);
    }

    private int viaKafka(CairnCli cli, CommandSpec command, long waitMs) {
        try (Outcomes.Watch watch = waitMs > 0 ? cli.watchOutcomes(command) : null) {
            Delivery delivery;
            try {
                delivery = cli.send(command, jobId, envelope);
            } catch (SendFailedException e) {
                throw retryable(e);
            }
            sent(command, delivery.describe());
            if (watch == null) {
                detached(command, "the RequestOutcome with this request id on " + cli.topics(command).journal()
                        + ", and GET /jobs/" + jobId + "/savepoints/" + requestId);
                return 0;
            }
            Optional<RequestOutcome> outcome = watch.await(jobId, requestId, Duration.ofMillis(waitMs));
            String location = outcome.map(RequestOutcome::getCheckpointId).flatMap(watch::location).orElse(null);
            return report(command, outcome, location, waitMs);
        }
    }

    private int viaRest(CommandSpec command, CairnClient client, long waitMs, boolean progress) {
        try {
            RestRequests.send(client, envelope).join();
        } catch (RuntimeException e) {
            throw retryable(new SendFailedException(RestRequests.message(e), e));
        }
        sent(command, client.base().toString());
        if (waitMs == 0) {
            detached(command, "GET " + client.base() + "/jobs/" + jobId + "/savepoints/" + requestId
                    + " (cairn request " + jobId + " " + requestId + ")");
            return 0;
        }
        PrintWriter err = command.commandLine().getErr();
        ProgressBar bar = progress || System.console() != null ? new ProgressBar(err, "checkpoint") : null;
        CairnClient.Progress acks = bar == null ? CairnClient.Progress.NONE
                : (checkpointId, acked, subtasks) -> bar.relabel("checkpoint " + checkpointId + " acks")
                        .advanced(acked, subtasks);
        try {
            var state = client.awaitState(jobId, requestId, Duration.ofMillis(waitMs), CairnClient.POLL, acks).join();
            RequestOutcome outcome = RequestOutcome.newBuilder().setJobId(jobId).setRequestId(requestId)
                    .setStatus(state.completed() ? RequestStatus.COMPLETED : RequestStatus.FAILED)
                    .setReason(reason(state.failureReason())).setMessage(state.failureMessage())
                    .setCheckpointId(state.checkpointId()).setTimestampMs(0L).build();
            return report(command, Optional.of(outcome), state.location(), waitMs);
        } catch (RuntimeException e) {
            if (e.getCause() instanceof java.util.concurrent.TimeoutException) {
                return report(command, Optional.empty(), null, waitMs);
            }
            throw new SendFailedException("request " + requestId + " was sent, but its outcome cannot be read: "
                    + RestRequests.message(e), e);
        } finally {
            if (bar != null) {
                bar.finished();
            }
        }
    }

    private static CheckpointFailureReason reason(String name) {
        if (name == null) {
            return null;
        }
        try {
            return CheckpointFailureReason.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private SendFailedException retryable(SendFailedException e) {
        return new SendFailedException(e.getMessage() + System.lineSeparator() + "request id: " + requestId
                + " (to retry, pass --request-id " + requestId + ": the coordinator acts on a request id only once)",
                e.getCause());
    }

    private void sent(CommandSpec command, String where) {
        PrintWriter out = command.commandLine().getOut();
        out.println("Sent " + envelope.getEvent().getClass().getSimpleName() + " of job '" + jobId + "' to " + where
                + ": " + what + ".");
        out.println("request id: " + requestId);
        out.flush();
    }

    private static void detached(CommandSpec command, String where) {
        PrintWriter out = command.commandLine().getOut();
        out.println("Its outcome is " + where + ".");
        out.flush();
    }

    private int report(CommandSpec command, Optional<RequestOutcome> outcome, String location, long waitMs) {
        PrintWriter out = command.commandLine().getOut();
        PrintWriter err = command.commandLine().getErr();
        int exit;
        if (outcome.isEmpty()) {
            err.println(command.qualifiedName() + ": no outcome of request " + requestId + " within " + waitMs
                    + " ms (--wait-ms); is the coordinator running? Its outcome will be at GET /jobs/" + jobId
                    + "/savepoints/" + requestId + " (cairn request " + jobId + " " + requestId + ").");
            exit = 1;
        } else if (outcome.get().getStatus() == RequestStatus.COMPLETED) {
            out.println(completed.apply(outcome.get(), location));
            exit = 0;
        } else {
            String reason = outcome.get().getReason() == null ? "" : " (" + outcome.get().getReason() + ")";
            err.println(command.qualifiedName() + ": " + (envelope.getEvent() instanceof TriggerRequest
                    ? "the checkpoint failed: " : "the coordinator refused the request: ")
                    + outcome.get().getMessage() + reason);
            exit = 1;
        }
        out.flush();
        err.flush();
        return exit;
    }
}
