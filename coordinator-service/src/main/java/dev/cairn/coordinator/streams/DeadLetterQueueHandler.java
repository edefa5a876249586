package dev.cairn.coordinator.streams;

import dev.cairn.core.events.BoundedText;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.metrics.logging.RepeatedWarnings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.StreamThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the coordinator running when a record cannot be read, processed or sent: the record's original bytes
 * go to the dead-letter topic ({@code errors.dead.letter.queue.topic.name}, i.e. {@code cairn.dlq}) with
 * headers saying why and where it came from, and processing resumes with the next record.
 *
 * <p>Headers: {@value #REASON} (the {@link EventDecodingException.Problem}, the
 * {@link CommandFailedException#reason()}, or the exception class), {@value #MESSAGE}, {@value #STAGE}
 * ({@code deserialization}, {@code processing} or {@code production}), {@value #SOURCE_TOPIC},
 * {@value #SOURCE_PARTITION}, {@value #SOURCE_OFFSET}; for a record that could not be sent also
 * {@value #DESTINATION_TOPIC} and {@value #VALUE_BYTES}, and no value (it was the problem). A value larger
 * than {@value #MAX_VALUE_BYTES} bytes, or than half the producer's {@code max.request.size}, is cut to that size,
 * {@value #TRUNCATED_FROM} says how large it was and {@value #VALUE_SHA256} what its SHA-256 was; a key larger than
 * an eighth of it likewise ({@value #KEY_TRUNCATED_FROM}, {@value #KEY_SHA256}); the message and the log line
 * quote at most {@value #MAX_MESSAGE_CHARS} characters (fewer under a small {@code max.request.size}). So the dead
 * letter itself always fits in what the producer sends, and no input is echoed whole. The log line of a dead letter
 * is rate-limited ({@link RepeatedWarnings}): the first {@value #LOGGED_PER_REASON} of each stage and reason a
 * minute, then, once the minute is over, one line with how many more were sent, so that a flood of bad records cannot
 * flood the log.
 *
 * <p>Records sent are counted in {@value #DEAD_LETTERS}{@code {stage, reason}} (Prometheus:
 * {@code cairn_dead_letters_total}) of the Micrometer registry given as the Kafka Streams property
 * {@value #METER_REGISTRY} (Micrometer's global registry when none is given). The reason label is the header's
 * reason when it is a plain identifier of at most {@value #MAX_REASON_LABEL_CHARS} characters (the problem
 * names and exception class names it is made of), {@code other} otherwise, so that the label stays bounded.
 * The count is per instance, starts at zero with the process, and may count a record twice when Kafka Streams
 * reprocesses it after an aborted transaction.
 */
public final class DeadLetterQueueHandler
        implements DeserializationExceptionHandler, ProcessingExceptionHandler, ProductionExceptionHandler {

    public static final String REASON = "cairn.dlq.reason";
    public static final String MESSAGE = "cairn.dlq.message";
    public static final String STAGE = "cairn.dlq.stage";
    public static final String SOURCE_TOPIC = "cairn.dlq.source.topic";
    public static final String SOURCE_PARTITION = "cairn.dlq.source.partition";
    public static final String SOURCE_OFFSET = "cairn.dlq.source.offset";
    public static final String DESTINATION_TOPIC = "cairn.dlq.destination.topic";
    public static final String VALUE_BYTES = "cairn.dlq.value.bytes";
    public static final String TRUNCATED_FROM = "cairn.dlq.truncated.from";
    public static final String VALUE_SHA256 = "cairn.dlq.value.sha256";
    public static final String KEY_TRUNCATED_FROM = "cairn.dlq.key.truncated.from";
    public static final String KEY_SHA256 = "cairn.dlq.key.sha256";
    static final int MAX_VALUE_BYTES = 256 * 1024;
    private static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
    private static final int MAX_MESSAGE_CHARS = 4096;

    /** The Kafka Streams property whose value is the {@link MeterRegistry} dead letters are counted in. */
    public static final String METER_REGISTRY = "cairn.metrics.registry";
    /** The Micrometer name of the dead-letter counter. */
    public static final String DEAD_LETTERS = "cairn.dead.letters";
    static final int MAX_REASON_LABEL_CHARS = 64;
    private static final Pattern PLAIN_REASON =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0," + (MAX_REASON_LABEL_CHARS - 1) + "}");

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterQueueHandler.class);
    /** Dead letters logged per stage and reason and minute; the others are counted and summed up. */
    static final int LOGGED_PER_REASON = 10;
    static final Duration LOG_WINDOW = Duration.ofMinutes(1);
    /**
     * One limit for the whole process: Kafka Streams creates a handler per thread and task, and a flood is one
     * whatever thread it reaches.
     */
    private static final RepeatedWarnings WARNINGS =
            new RepeatedWarnings(LOGGED_PER_REASON, LOG_WINDOW, 64, System::currentTimeMillis);

    private String deadLetterTopic;
    private MeterRegistry registry;
    private UnsendableInputs unsendable;
    private int maxValueBytes = MAX_VALUE_BYTES;
    private int maxKeyBytes = MAX_VALUE_BYTES;
    private int maxMessageChars = MAX_MESSAGE_CHARS;
    private final BooleanSupplier onStreamThread;

    /** The handler Kafka Streams creates from {@code *.exception.handler} properties. */
    public DeadLetterQueueHandler() {
        this(() -> Thread.currentThread() instanceof StreamThread);
    }

    /** @param onStreamThread whether the caller runs on a stream thread, i.e. within the send of the record */
    DeadLetterQueueHandler(BooleanSupplier onStreamThread) {
        this.onStreamThread = onStreamThread;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        if (topic == null || topic.toString().isBlank()) {
            throw new IllegalArgumentException(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG
                    + " must name the dead-letter topic");
        }
        deadLetterTopic = topic.toString();
        Object given = configs.get(METER_REGISTRY);
        if (given != null && !(given instanceof MeterRegistry)) {
            throw new IllegalArgumentException(METER_REGISTRY + " must be a Micrometer MeterRegistry, not a "
                    + given.getClass().getName());
        }
        registry = given == null ? Metrics.globalRegistry : (MeterRegistry) given;
        unsendable = UnsendableInputs.from(configs);
        int maxRequestBytes = maxRequestBytes(configs);
        maxValueBytes = Math.min(MAX_VALUE_BYTES, maxRequestBytes / 2);
        maxKeyBytes = Math.min(MAX_VALUE_BYTES, maxRequestBytes / 8);
        maxMessageChars = Math.min(MAX_MESSAGE_CHARS, maxRequestBytes / 16);
    }

    /** The producer's {@code max.request.size}: the largest record, dead letters included, it sends. */
    private static int maxRequestBytes(Map<String, ?> configs) {
        Object given = configs.get(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
        if (given == null) {
            given = configs.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        }
        return given == null ? DEFAULT_MAX_REQUEST_BYTES : Integer.parseInt(given.toString().strip());
    }

    /** The counter of dead letters of one stage and reason. */
    private Counter deadLetters(String stage, String reason) {
        return Counter.builder(DEAD_LETTERS)
                .description("Records sent to the dead-letter topic, by the stage that failed and why")
                .tag("stage", stage)
                .tag("reason", PLAIN_REASON.matcher(reason).matches() ? reason : "other")
                .register(registry);
    }

    @Override
    public DeserializationExceptionHandler.Response handleError(
            ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        return DeserializationExceptionHandler.Response.resume(
                List.of(deadLetter("deserialization", context, record.key(), record.value(), exception)));
    }

    @Override
    public ProcessingExceptionHandler.Response handleError(
            ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (exception instanceof StreamsException) {
            // the task is broken (a store, or a send that already failed the transaction), not the record: skipping
            // the record would lose it, and under exactly-once nothing more can be sent in this transaction
            LOG.error("Processing record {}-{}@{} failed the task; Kafka Streams retries it: {}", context.topic(),
                    context.partition(), context.offset(), BoundedText.of(exception.toString(), MAX_MESSAGE_CHARS));
            return ProcessingExceptionHandler.Response.fail();
        }
        if (exception instanceof BackloggedInputException kept) {
            RebuildBacklog.Entry input = kept.input();
            return ProcessingExceptionHandler.Response.resume(List.of(deadLetter("processing", kept.reason(),
                    input.topic(), input.partition(), input.offset(), RebuildBacklog.keyBytes(input),
                    RebuildBacklog.envelopeBytes(input), kept.getCause())));
        }
        return ProcessingExceptionHandler.Response.resume(
                List.of(deadLetter("processing", context, context.sourceRawKey(), context.sourceRawValue(),
                        exception)));
    }

    /**
     * A record the coordinator produced could not be sent. Under exactly-once the transaction cannot take the
     * decision's other records any more, so resuming would lose part of a decision and Kafka Streams would process
     * the input again and fail again. So the task fails (its transaction is aborted and the stream thread
     * replaced), and when Kafka refused the record itself ({@link #refusesTheRecordItself}) and the failed send
     * belongs to an input this thread is processing (the error reached the handler from the send itself, on the
     * stream thread), that input is marked in {@link UnsendableInputs}: it is
     * dead-lettered with this reason and skipped when processed again, so one bad input costs one thread
     * replacement, never a loop. A failure reported later by the producer's own thread (the broker refused the
     * batch) cannot be traced to its input and fails the task only. A dead letter that cannot be sent is logged
     * and not retried: it is already bounded ({@value #MAX_VALUE_BYTES} bytes of value at most).
     */
    @Override
    public ProductionExceptionHandler.Response handleError(
            ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (record.topic().equals(deadLetterTopic)) {
            LOG.error("Could not send a dead letter to {}; dropped it: {}", deadLetterTopic, exception.toString());
            return ProductionExceptionHandler.Response.resume();
        }
        if (refusesTheRecordItself(exception)) {
            markInput(context, record.topic(), exception);
        }
        return ProductionExceptionHandler.Response.fail();
    }

    /**
     * Whether Kafka refused the record for what it is (too large, or invalid for its topic), so that sending it again
     * fails again; any other failure (a broker or network error) is retried with the input, never skipped.
     */
    private static boolean refusesTheRecordItself(Exception exception) {
        return exception instanceof RecordTooLargeException || exception instanceof RecordBatchTooLargeException
                || exception instanceof InvalidRecordException;
    }

    /**
     * A record the coordinator produced could not be serialized: as above, the input is marked and the task fails;
     * a record of a timer tick (no input) is dead-lettered without its value and processing goes on.
     */
    @Override
    @SuppressWarnings("rawtypes")
    public ProductionExceptionHandler.Response handleSerializationError(ErrorHandlerContext context,
            ProducerRecord record, Exception exception,
            SerializationExceptionOrigin origin) {
        if (markInput(context, record.topic(), exception)) {
            return ProductionExceptionHandler.Response.fail();
        }
        return ProductionExceptionHandler.Response.resume(List.of(unsent(context, record, exception)));
    }

    /**
     * Marks the input whose decision could not be sent, when the failure is traceable to it: the record's own
     * source, or, for a store's changelog record (sent without a source), the input the stream thread is
     * processing. Whether an input was marked.
     */
    private boolean markInput(ErrorHandlerContext context, String destination, Exception exception) {
        String reason = exception.getClass().getSimpleName() + " sending to " + destination + ": "
                + BoundedText.of(String.valueOf(exception.getMessage()), maxMessageChars);
        boolean onThread = onStreamThread.getAsBoolean();
        if (onThread && context.topic() != null && context.offset() >= 0) {
            unsendable.mark(context.topic(), context.partition(), context.offset(), reason);
        } else if (!onThread || !unsendable.markCurrent(reason)) {
            LOG.error("Could not send a record to {} ({}); the task fails and is retried", destination, reason);
            return false;
        }
        LOG.error("Could not send what an input decided ({}); the task fails, and the input will be dead-lettered and "
                + "skipped", reason);
        return true;
    }

    private ProducerRecord<byte[], byte[]> unsent(ErrorHandlerContext context, ProducerRecord<?, ?> record,
            Exception exception) {
        ProducerRecord<byte[], byte[]> dead = deadLetter("production", context,
                record.key() instanceof byte[] bytes ? bytes : null, null, exception);
        dead.headers().add(DESTINATION_TOPIC, utf8(record.topic()));
        if (record.value() instanceof byte[] value) {
            dead.headers().add(VALUE_BYTES, utf8(Integer.toString(value.length)));
        }
        return dead;
    }

    private ProducerRecord<byte[], byte[]> deadLetter(
            String stage, ErrorHandlerContext context, byte[] key, byte[] value, Exception exception) {
        String reason = exception instanceof EventDecodingException decoding ? decoding.problem().name()
                : exception instanceof CommandFailedException failed ? failed.reason()
                : exception.getClass().getSimpleName();
        return deadLetter(stage, reason, context.topic(), context.partition(), context.offset(), key, value,
                exception);
    }

    private ProducerRecord<byte[], byte[]> deadLetter(String stage, String reason, String topic, int partition,
            long offset, byte[] key, byte[] value, Throwable exception) {
        String message = BoundedText.of(String.valueOf(exception.getMessage()), maxMessageChars);
        if (WARNINGS.admit(stage + " " + reason, DeadLetterQueueHandler::suppressed)) {
            LOG.warn("Sent record {}-{}@{} to {}: {} failed, {}: {}", topic, partition, offset, deadLetterTopic, stage,
                    reason, message);
        }
        deadLetters(stage, reason).increment();
        RecordHeaders headers = new RecordHeaders();
        headers.add(REASON, utf8(reason));
        headers.add(MESSAGE, utf8(message));
        headers.add(STAGE, utf8(stage));
        headers.add(SOURCE_TOPIC, utf8(String.valueOf(topic)));
        headers.add(SOURCE_PARTITION, utf8(Integer.toString(partition)));
        headers.add(SOURCE_OFFSET, utf8(Long.toString(offset)));
        byte[] kept = bounded(value, maxValueBytes, headers, TRUNCATED_FROM, VALUE_SHA256);
        byte[] keptKey = bounded(key, maxKeyBytes, headers, KEY_TRUNCATED_FROM, KEY_SHA256);
        return new ProducerRecord<>(deadLetterTopic, null, keptKey, kept, headers);
    }

    /**
     * Logs how many dead letters went unlogged in the windows that ended: the processor calls it at each tick, so that
     * the summary of a flood that stopped is logged too.
     */
    static void logSuppressed() {
        WARNINGS.flush(DeadLetterQueueHandler::suppressed);
    }

    private static void suppressed(String stageAndReason, long count, Duration window) {
        LOG.warn("Sent {} more records to the dead-letter topic ({} failed) in {} s without logging each: the first "
                + "{} of each reason a minute are logged; cairn_dead_letters_total counts them all", count,
                stageAndReason, window.toSeconds(), LOGGED_PER_REASON);
    }

    /** {@code bytes}, or their first {@code max} with their size and hash in the two headers. */
    private static byte[] bounded(byte[] bytes, int max, RecordHeaders headers, String sizeHeader, String hashHeader) {
        if (bytes == null || bytes.length <= max) {
            return bytes;
        }
        headers.add(sizeHeader, utf8(Integer.toString(bytes.length)));
        headers.add(hashHeader, utf8(BoundedText.sha256(bytes)));
        return Arrays.copyOf(bytes, max);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
