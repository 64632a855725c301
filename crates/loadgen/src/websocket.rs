//! WebSocket frames (RFC 6455) as the people's cables and the bench's
//! Campfire-shaped server read and write them straight out of and into
//! their own buffers: tungstenite's header codec, a payload borrowed from
//! the bytes read (no allocation per frame), and the client's mask applied
//! in place. Only whole, unfragmented messages are read: Action Cable sends
//! nothing else.

use std::io::Cursor;

use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Control, Data, OpCode};

/// What a frame carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Binary,
    Close,
    Ping,
    Pong,
}

/// One frame read from the front of a buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub kind: Kind,
    /// Where the payload lies in the buffer it was read from.
    pub payload: std::ops::Range<usize>,
    /// The header and the payload: where the next frame starts.
    pub len: usize,
}

/// Why bytes are not a frame this reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("unreadable WebSocket frame: {0}")]
    Header(String),
    #[error("a fragmented WebSocket message (not sent by Action Cable)")]
    Fragmented,
    #[error("a WebSocket frame of {0} bytes (at most {MAX_FRAME_BYTES})")]
    TooLong(u64),
}

/// The longest frame read: a page's worth, far more than any cable frame.
pub const MAX_FRAME_BYTES: u64 = 1 << 20;

/// The frame at the front of `bytes`, unmasked in place when masked, or
/// `None` until it has all arrived.
pub fn read_frame(bytes: &mut [u8]) -> Result<Option<Frame>, FrameError> {
    let mut cursor = Cursor::new(&*bytes);
    let Some((header, length)) =
        FrameHeader::parse(&mut cursor).map_err(|e| FrameError::Header(e.to_string()))?
    else {
        return Ok(None);
    };
    if length > MAX_FRAME_BYTES {
        return Err(FrameError::TooLong(length));
    }
    let start = cursor.position() as usize;
    let end = start + length as usize;
    if bytes.len() < end {
        return Ok(None);
    }
    let kind = match header.opcode {
        _ if !header.is_final => return Err(FrameError::Fragmented),
        OpCode::Data(Data::Text) => Kind::Text,
        OpCode::Data(Data::Binary) => Kind::Binary,
        OpCode::Data(Data::Continue) => return Err(FrameError::Fragmented),
        OpCode::Control(Control::Close) => Kind::Close,
        OpCode::Control(Control::Ping) => Kind::Ping,
        OpCode::Control(Control::Pong) => Kind::Pong,
        reserved => return Err(FrameError::Header(format!("opcode {reserved}"))),
    };
    if let Some(mask) = header.mask {
        apply_mask(&mut bytes[start..end], mask);
    }
    Ok(Some(Frame {
        kind,
        payload: start..end,
        len: end,
    }))
}

/// Appends one whole frame of `payload` to `out`, masked with `mask` (a
/// client's frames are masked, a server's are not).
pub fn write_frame(out: &mut Vec<u8>, kind: Kind, payload: &[u8], mask: Option<[u8; 4]>) {
    let opcode = match kind {
        Kind::Text => OpCode::Data(Data::Text),
        Kind::Binary => OpCode::Data(Data::Binary),
        Kind::Close => OpCode::Control(Control::Close),
        Kind::Ping => OpCode::Control(Control::Ping),
        Kind::Pong => OpCode::Control(Control::Pong),
    };
    let header = FrameHeader {
        opcode,
        mask,
        ..FrameHeader::default()
    };
    // Writing to a Vec cannot fail.
    let _ = header.format(payload.len() as u64, out);
    let start = out.len();
    out.extend_from_slice(payload);
    if let Some(mask) = mask {
        apply_mask(&mut out[start..], mask);
    }
}

fn apply_mask(bytes: &mut [u8], mask: [u8; 4]) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b ^= mask[i % 4];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_tungstenite::tungstenite::protocol::frame::Frame as TungsteniteFrame;

    #[test]
    fn a_frame_written_here_reads_as_tungstenite_writes_it() {
        for len in [0, 5, 125, 126, 700, 65_535, 65_536, 100_000] {
            let payload: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            for mask in [None, Some([1, 2, 3, 4])] {
                let mut ours = Vec::new();
                write_frame(&mut ours, Kind::Text, &payload, mask);
                let mut theirs = Vec::new();
                let mut frame =
                    TungsteniteFrame::message(payload.clone(), OpCode::Data(Data::Text), true);
                frame.header_mut().mask = mask;
                frame.format(&mut theirs).unwrap();
                assert_eq!(ours, theirs, "{len} bytes, mask {mask:?}");
                let read = read_frame(&mut ours).unwrap().unwrap();
                assert_eq!((read.kind, read.len), (Kind::Text, theirs.len()));
                assert_eq!(&ours[read.payload], &payload[..], "unmasked in place");
            }
        }
    }

    #[test]
    fn a_frame_is_read_only_once_whole_and_the_next_one_follows() {
        let mut bytes = Vec::new();
        write_frame(&mut bytes, Kind::Text, b"{\"type\":\"ping\"}", None);
        write_frame(&mut bytes, Kind::Close, b"", Some([9, 9, 9, 9]));
        let first_len = 2 + 15;
        for cut in 0..first_len {
            assert_eq!(read_frame(&mut bytes[..cut]).unwrap(), None, "cut at {cut}");
        }
        let first = read_frame(&mut bytes).unwrap().unwrap();
        assert_eq!(first.len, first_len);
        let second = read_frame(&mut bytes[first.len..]).unwrap().unwrap();
        assert_eq!(second.kind, Kind::Close);
    }

    #[test]
    fn fragments_and_oversized_frames_are_refused() {
        let mut fragment = vec![0x01, 0x02, b'h', b'i']; // text, not final
        assert_eq!(read_frame(&mut fragment), Err(FrameError::Fragmented));
        let mut continuation = vec![0x80, 0x00]; // final continuation
        assert_eq!(read_frame(&mut continuation), Err(FrameError::Fragmented));
        let mut huge = vec![0x81, 127, 0, 0, 0, 0, 0x10, 0, 0, 0];
        assert!(matches!(read_frame(&mut huge), Err(FrameError::TooLong(_))));
    }
}
