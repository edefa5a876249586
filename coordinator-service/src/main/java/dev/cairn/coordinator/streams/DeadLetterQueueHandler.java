package dev.cairn.coordinator.streams;

import dev.cairn.events.serde.EventDecodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the coordinator running when a record cannot be read or processed: the record's original bytes go
 * to the dead-letter topic ({@code errors.dead.letter.queue.topic.name}, i.e. {@code cairn.dlq}) with
 * headers saying why and where it came from, and processing resumes with the next record.
 *
 * <p>Headers: {@value #REASON} (the {@link EventDecodingException.Problem}, or the exception class),
 * {@value #MESSAGE}, {@value #STAGE} ({@code deserialization} or {@code processing}), {@value #SOURCE_TOPIC},
 * {@value #SOURCE_PARTITION}, {@value #SOURCE_OFFSET}. Records sent are counted per application id.
 */
public final class DeadLetterQueueHandler implements DeserializationExceptionHandler, ProcessingExceptionHandler {

    public static final String REASON = "cairn.dlq.reason";
    public static final String MESSAGE = "cairn.dlq.message";
    public static final String STAGE = "cairn.dlq.stage";
    public static final String SOURCE_TOPIC = "cairn.dlq.source.topic";
    public static final String SOURCE_PARTITION = "cairn.dlq.source.partition";
    public static final String SOURCE_OFFSET = "cairn.dlq.source.offset";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterQueueHandler.class);
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private String deadLetterTopic;
    private AtomicLong count;

    /** How many records the application with this id sent to the dead-letter topic since this JVM started. */
    public static long deadLettered(String applicationId) {
        AtomicLong counter = COUNTS.get(applicationId);
        return counter == null ? 0 : counter.get();
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        if (topic == null || topic.toString().isBlank()) {
            throw new IllegalArgumentException(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG
                    + " must name the dead-letter topic");
        }
        deadLetterTopic = topic.toString();
        count = COUNTS.computeIfAbsent(String.valueOf(configs.get(StreamsConfig.APPLICATION_ID_CONFIG)),
                id -> new AtomicLong());
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
        return ProcessingExceptionHandler.Response.resume(
                List.of(deadLetter("processing", context, context.sourceRawKey(), context.sourceRawValue(), exception)));
    }

    private ProducerRecord<byte[], byte[]> deadLetter(
            String stage, ErrorHandlerContext context, byte[] key, byte[] value, Exception exception) {
        String reason = exception instanceof EventDecodingException decoding
                ? decoding.problem().name()
                : exception.getClass().getSimpleName();
        String message = String.valueOf(exception.getMessage());
        LOG.warn("Sent record {}-{}@{} to {}: {} failed, {}: {}", context.topic(), context.partition(), context.offset(),
                deadLetterTopic, stage, reason, message);
        count.incrementAndGet();
        RecordHeaders headers = new RecordHeaders();
        headers.add(REASON, utf8(reason));
        headers.add(MESSAGE, utf8(message));
        headers.add(STAGE, utf8(stage));
        headers.add(SOURCE_TOPIC, utf8(context.topic()));
        headers.add(SOURCE_PARTITION, utf8(Integer.toString(context.partition())));
        headers.add(SOURCE_OFFSET, utf8(Long.toString(context.offset())));
        return new ProducerRecord<>(deadLetterTopic, null, key, value, headers);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
