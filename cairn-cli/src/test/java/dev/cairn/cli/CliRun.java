package dev.cairn.cli;

import dev.cairn.auth.SigningKey;
import dev.cairn.client.requests.RequestSender;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * Runs the CLI without Kafka: what it would send is recorded (and "acknowledged" at partition 3, offset 42),
 * its output and errors are captured. Its environment names a requests key file ({@link #REQUESTS_KEY}), as an
 * operator's would, unless a test gives another environment.
 */
final class CliRun {

    static final long NOW_MS = 1_700_000_000_000L;
    /** The requests key of the default environment's {@code CAIRN_REQUESTS_KEY_FILE}. */
    static final SigningKey REQUESTS_KEY = SigningKey.generate().requestsKey();
    private static final Map<String, String> SIGNING = Map.of("CAIRN_REQUESTS_KEY_FILE", keyFile().toString());

    /** One request the CLI handed to its sender, and the key it was to be signed with (empty: unsigned). */
    record Sent(String topic, String key, RequestEnvelope envelope, Map<String, Object> producerConfig,
                Duration timeout, Optional<SigningKey> requestsKey) {}

    final List<Sent> sent = new ArrayList<>();
    int exit;
    String out;
    String err;
    private RuntimeException failure;
    private RequestOutcome outcome;
    /** The journal topics outcomes were awaited on. */
    final List<String> watched = new ArrayList<>();
    private Map<String, String> environment = SIGNING;

    /**
     * Runs with {@code variables} as the process's environment (by default only {@code CAIRN_REQUESTS_KEY_FILE});
     * give {@link #signing} and more to keep the key.
     */
    CliRun withEnvironment(Map<String, String> variables) {
        this.environment = variables;
        return this;
    }

    /** The default environment with {@code variables} added. */
    static Map<String, String> signing(Map<String, String> variables) {
        Map<String, String> all = new HashMap<>(SIGNING);
        all.putAll(variables);
        return all;
    }

    /** Makes every send fail with {@code error}. */
    CliRun failingWith(RuntimeException error) {
        this.failure = error;
        return this;
    }

    /**
     * Answers every awaited request with {@code status} (and {@code message}, {@code checkpointId}); without it no
     * outcome comes.
     */
    CliRun answering(RequestStatus status, String message, Long checkpointId) {
        this.outcome = RequestOutcome.newBuilder().setJobId("").setRequestId("").setStatus(status)
                .setReason(status == RequestStatus.FAILED ? CheckpointFailureReason.INVALID_REQUEST : null)
                .setMessage(message).setCheckpointId(checkpointId).setTimestampMs(NOW_MS).build();
        return this;
    }

    CliRun run(String... args) {
        RequestSender.Factory factory = (config, topic, timeout, requestsKey) -> new RequestSender() {
            @Override
            public Delivery send(String jobId, RequestEnvelope envelope) {
                if (failure != null) {
                    throw failure;
                }
                sent.add(new Sent(topic, jobId, envelope, config, timeout, requestsKey));
                return new Delivery(topic, 3, 42);
            }

            @Override
            public void close() {
            }
        };
        Outcomes outcomes = (config, topic) -> {
            watched.add(topic);
            return new Outcomes.Watch() {
                @Override
                public Optional<RequestOutcome> await(String jobId, String requestId, Duration timeout) {
                    return Optional.ofNullable(outcome).map(o -> RequestOutcome.newBuilder(o).setJobId(jobId)
                            .setRequestId(requestId).build());
                }

                @Override
                public void close() {
                }
            };
        };
        CommandLine commandLine = CairnCli.commandLine(new CairnCli(factory,
                Clock.fixed(Instant.ofEpochMilli(NOW_MS), ZoneOffset.UTC), environment).withOutcomes(outcomes));
        Output output = execute(commandLine, args);
        exit = output.exit();
        out = output.out();
        err = output.err();
        return this;
    }

    /** What one run of a command line printed and returned. */
    record Output(int exit, String out, String err) {}

    /** Runs {@code commandLine} with {@code args}, its output and errors captured. */
    static Output execute(CommandLine commandLine, String... args) {
        StringWriter outText = new StringWriter();
        StringWriter errText = new StringWriter();
        commandLine.setOut(new PrintWriter(outText, true));
        commandLine.setErr(new PrintWriter(errText, true));
        int exit = commandLine.execute(args);
        return new Output(exit, outText.toString(), errText.toString());
    }

    private static Path keyFile() {
        try {
            Path file = Files.createTempFile("cairn-cli-test-", ".key");
            file.toFile().deleteOnExit();
            return Files.writeString(file, REQUESTS_KEY.toBase64());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CliRun of(String... args) {
        return new CliRun().run(args);
    }

    /** The only event sent. */
    Object event() {
        if (sent.size() != 1) {
            throw new AssertionError("expected one request to be sent, but " + sent.size() + " were; err: " + err);
        }
        return sent.get(0).envelope().getEvent();
    }
}
