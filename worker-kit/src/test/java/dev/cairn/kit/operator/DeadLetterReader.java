package dev.cairn.kit.operator;

import dev.cairn.kit.TopicContents;
import dev.cairn.kit.wire.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The reasons of the dead letters on a topic, in order. */
final class DeadLetterReader {

    private DeadLetterReader() {
    }

    static List<String> reasons(String bootstrap, String topic) {
        List<String> reasons = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : TopicContents.read(bootstrap, topic, false)) {
            reasons.add(new String(record.headers().lastHeader(DeadLetters.REASON).value(), StandardCharsets.UTF_8));
        }
        return reasons;
    }
}
