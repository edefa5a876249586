package dev.cairn.sidecar.hook.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StreamCaptureTest {

    @Test
    void shouldKeepTheFirstBytesAndReportTheOverflowWhenCapturingTheHead() {
        StreamCapture head = StreamCapture.head(5);
        head.drain(new ByteArrayInputStream("abcdefgh".getBytes(StandardCharsets.UTF_8)));

        assertThat(head.text()).isEqualTo("abcde");
        assertThat(head.overflowed()).isTrue();
    }

    @Test
    void shouldKeepOnlyTheLastBytesWhenCapturingTheTailOfALongStream() {
        StreamCapture tail = StreamCapture.tail(2048);
        String longLine = "0123456789".repeat(1000);
        tail.drain(new ByteArrayInputStream((longLine + "\nlast line\n").getBytes(StandardCharsets.UTF_8)));

        assertThat(tail.text()).hasSize(2048).endsWith("789\nlast line\n");
        assertThat(tail.lastLines(20)).startsWith("...\n").endsWith("\nlast line").hasSizeLessThan(2060);
    }

    @Test
    void shouldKeepTheNewestLinesAndMarkTheCutWhenAskedForTheLastLines() {
        StreamCapture tail = StreamCapture.tail(2048);
        tail.drain(new ByteArrayInputStream("one\ntwo\nthree\nfour\n".getBytes(StandardCharsets.UTF_8)));

        assertThat(tail.lastLines(2)).isEqualTo("...\nthree\nfour");
        assertThat(tail.lastLines(4)).isEqualTo("one\ntwo\nthree\nfour");
    }

    @Test
    void shouldSayThereWasNoOutputWhenTheStreamIsSilent() {
        StreamCapture tail = StreamCapture.tail(2048);
        tail.drain(new ByteArrayInputStream(new byte[0]));

        assertThat(tail.lastLines(20)).isEqualTo("(no output)");
        assertThat(tail.overflowed()).isFalse();
    }
}
