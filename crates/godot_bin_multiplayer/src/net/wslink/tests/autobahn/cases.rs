//! The suite's cases, section by section, as `Case`s for the harness beside this file.

use super::*;

pub(super) fn section_1_2_3_4_5() -> Vec<Case> {
    let mut cases = Vec::new();
    let echo = Close::Echo;
    let fail = || Close::Fail(vec![1002]);
    // §1: text and binary messages of each length form.
    for (i, (n, w)) in [
        (0, None),
        (125, None),
        (126, None),
        (127, None),
        (128, None),
        (65535, None),
        (65536, None),
        (65536, Some(997)),
    ]
    .into_iter()
    .enumerate()
    {
        for (sub, op, byte) in [(1, TEXT, b'*'), (2, BINARY, 0xFE)] {
            let p = vec![byte; n];
            let acts = vec![Act::Send(
                vec![fr(true, op, &p)],
                w.map_or(Write::One, Write::Chop),
            )];
            let mut c = case(
                format!("1.{sub}.{}", i + 1),
                "5.2, 5.6",
                acts,
                vec![Ev::Msg(op == TEXT, p)],
                echo.clone(),
            );
            c.wait = Duration::from_secs(10);
            cases.push(c);
        }
    }
    cases.sort_by_key(|c| c.id.clone());
    // §2: pings and pongs.
    let hello = b"Hello, world!";
    let bin8 = [0x00, 0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0x00, 0xff];
    let p125 = vec![0xFE; 125];
    cases.push(case(
        "2.1",
        "5.5.2, 5.5.3",
        vec![send(vec![fr(true, PING, b"")])],
        vec![Ev::Pong(vec![])],
        echo.clone(),
    ));
    cases.push(case(
        "2.2",
        "5.5.2, 5.5.3",
        vec![send(vec![fr(true, PING, hello)])],
        vec![Ev::Pong(hello.to_vec())],
        echo.clone(),
    ));
    cases.push(case(
        "2.3",
        "5.5.2, 5.5.3",
        vec![send(vec![fr(true, PING, &bin8)])],
        vec![Ev::Pong(bin8.to_vec())],
        echo.clone(),
    ));
    cases.push(case(
        "2.4",
        "5.5",
        vec![send(vec![fr(true, PING, &p125)])],
        vec![Ev::Pong(p125.clone())],
        echo.clone(),
    ));
    cases.push(case(
        "2.5",
        "5.5",
        vec![send(vec![fr(true, PING, &[0xFE; 126])])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "2.6",
        "5.5.2",
        vec![Act::Send(vec![fr(true, PING, &p125)], Write::Chop(1))],
        vec![Ev::Pong(p125)],
        echo.clone(),
    ));
    cases.push(case(
        "2.7",
        "5.5.3",
        vec![send(vec![fr(true, PONG, b"")])],
        vec![],
        echo.clone(),
    ));
    cases.push(case(
        "2.8",
        "5.5.3",
        vec![send(vec![fr(true, PONG, b"unsolicited pong payload")])],
        vec![],
        echo.clone(),
    ));
    cases.push(case(
        "2.9",
        "5.5.2, 5.5.3",
        vec![send(vec![
            fr(true, PONG, b"unsolicited pong payload"),
            fr(true, PING, b"ping payload"),
        ])],
        vec![Ev::Pong(b"ping payload".to_vec())],
        echo.clone(),
    ));
    let pings: Vec<Vec<u8>> = (0..10)
        .map(|i| format!("payload-{i}").into_bytes())
        .collect();
    let pongs: Vec<Ev> = pings.iter().cloned().map(Ev::Pong).collect();
    cases.push(case(
        "2.10",
        "5.5.3",
        vec![Act::Send(
            pings.iter().map(|p| fr(true, PING, p)).collect(),
            Write::Sync,
        )],
        pongs.clone(),
        echo.clone(),
    ));
    cases.push(case(
        "2.11",
        "5.5.3",
        vec![Act::Send(
            pings.iter().map(|p| fr(true, PING, p)).collect(),
            Write::Chop(1),
        )],
        pongs,
        echo.clone(),
    ));
    // §3: reserved bits.
    let no_echo = "the server failed before echoing the message in front of the bad frame";
    cases.push(case(
        "3.1",
        "5.2",
        vec![send(vec![fr_rsv(1, TEXT, hello)])],
        vec![],
        fail(),
    ));
    for (id, rsv, w) in [
        ("3.2", 2, Write::One),
        ("3.3", 3, Write::Sync),
        ("3.4", 4, Write::Chop(1)),
    ] {
        let mut c = case(
            id,
            "5.2",
            vec![Act::Send(
                vec![text(hello), fr_rsv(rsv, TEXT, hello), fr(true, PING, b"")],
                w,
            )],
            vec![t(hello)],
            fail(),
        );
        c.non_strict = Some((vec![], no_echo));
        cases.push(c);
    }
    cases.push(case(
        "3.5",
        "5.2",
        vec![send(vec![fr_rsv(5, BINARY, &bin8)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "3.6",
        "5.2",
        vec![send(vec![fr_rsv(6, BINARY, hello)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "3.7",
        "5.2",
        vec![send(vec![fr_rsv(7, CLOSE, b"")])],
        vec![],
        fail(),
    ));
    // §4: reserved opcodes, alone and after a valid message.
    let reserved = b"reserved opcode payload";
    for (id, op, lead, w) in [
        ("4.1.1", 3, false, Write::One),
        ("4.1.2", 4, false, Write::One),
        ("4.1.3", 5, true, Write::One),
        ("4.1.4", 6, true, Write::One),
        ("4.1.5", 7, true, Write::Chop(1)),
        ("4.2.1", 11, false, Write::One),
        ("4.2.2", 12, false, Write::One),
        ("4.2.3", 13, true, Write::One),
        ("4.2.4", 14, true, Write::One),
        ("4.2.5", 15, true, Write::Chop(1)),
    ] {
        let body: &[u8] = if matches!(op, 3 | 5 | 11 | 13) {
            b""
        } else {
            reserved
        };
        let mut frames = vec![fr(true, op, body)];
        if lead {
            frames.insert(0, text(hello));
            frames.push(fr(true, PING, b""));
        }
        let mut c = case(
            id,
            "5.2",
            vec![Act::Send(frames, w)],
            if lead { vec![t(hello)] } else { vec![] },
            fail(),
        );
        if lead {
            c.non_strict = Some((vec![], no_echo));
        }
        cases.push(c);
    }
    // §5: fragmentation.
    let (f1, f2) = (b"fragment1", b"fragment2");
    cases.push(case(
        "5.1",
        "5.4, 5.5",
        vec![send(vec![fr(false, PING, f1), fr(true, CONTINUATION, f2)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "5.2",
        "5.4, 5.5",
        vec![send(vec![fr(false, PONG, f1), fr(true, CONTINUATION, f2)])],
        vec![],
        fail(),
    ));
    let two = vec![fr(false, TEXT, f1), fr(true, CONTINUATION, f2)];
    for (id, w) in [
        ("5.3", Write::One),
        ("5.4", Write::Sync),
        ("5.5", Write::Chop(1)),
    ] {
        cases.push(case(
            id,
            "5.4",
            vec![Act::Send(two.clone(), w)],
            vec![t(b"fragment1fragment2")],
            echo.clone(),
        ));
    }
    let with_ping = vec![
        fr(false, TEXT, f1),
        fr(true, PING, b"ping payload"),
        fr(true, CONTINUATION, f2),
    ];
    for (id, w) in [
        ("5.6", Write::One),
        ("5.7", Write::Sync),
        ("5.8", Write::Chop(1)),
    ] {
        cases.push(case(
            id,
            "5.4",
            vec![Act::Send(with_ping.clone(), w)],
            vec![Ev::Pong(b"ping payload".to_vec()), t(b"fragment1fragment2")],
            echo.clone(),
        ));
    }
    for (id, fin, w) in [
        ("5.9", true, Write::One),
        ("5.10", true, Write::Sync),
        ("5.11", true, Write::Chop(1)),
        ("5.12", false, Write::One),
        ("5.13", false, Write::Sync),
        ("5.14", false, Write::Chop(1)),
    ] {
        cases.push(case(
            id,
            "5.4",
            vec![Act::Send(
                vec![
                    fr(fin, CONTINUATION, b"non-continuation payload"),
                    text(hello),
                ],
                w,
            )],
            vec![],
            fail(),
        ));
    }
    let mut c = case(
        "5.15",
        "5.4",
        vec![send(vec![
            fr(false, TEXT, f1),
            fr(true, CONTINUATION, f2),
            fr(false, CONTINUATION, b"fragment3"),
            fr(true, TEXT, b"fragment4"),
        ])],
        vec![t(b"fragment1fragment2")],
        fail(),
    );
    c.non_strict = Some((vec![], no_echo));
    cases.push(c);
    let trio = |first_fin: bool| {
        vec![
            fr(first_fin, CONTINUATION, f1),
            fr(false, TEXT, f2),
            fr(true, CONTINUATION, b"fragment3"),
        ]
    };
    cases.push(case(
        "5.16",
        "5.4",
        vec![send([trio(false), trio(false)].concat())],
        vec![],
        fail(),
    ));
    cases.push(case(
        "5.17",
        "5.4",
        vec![send([trio(true), trio(true)].concat())],
        vec![],
        fail(),
    ));
    cases.push(case(
        "5.18",
        "5.4",
        vec![send(vec![fr(false, TEXT, f1), fr(true, TEXT, f2)])],
        vec![],
        fail(),
    ));
    for (id, w) in [("5.19", Write::One), ("5.20", Write::Sync)] {
        let acts = vec![
            Act::Send(
                vec![
                    fr(false, TEXT, f1),
                    fr(false, CONTINUATION, f2),
                    fr(true, PING, b"pongme 1!"),
                ],
                w,
            ),
            Act::Pause(200),
            // The first pong came while the message is still unfinished.
            Act::Mark("pause"),
            Act::Send(
                vec![
                    fr(false, CONTINUATION, b"fragment3"),
                    fr(false, CONTINUATION, b"fragment4"),
                    fr(true, PING, b"pongme 2!"),
                    fr(true, CONTINUATION, b"fragment5"),
                ],
                w,
            ),
        ];
        let ok = vec![
            Ev::Pong(b"pongme 1!".to_vec()),
            Ev::Mark("pause"),
            Ev::Pong(b"pongme 2!".to_vec()),
            t(b"fragment1fragment2fragment3fragment4fragment5"),
        ];
        cases.push(case(id, "5.4, 5.5.2", acts, ok, echo.clone()));
    }
    cases
}

/// UTF-8 payloads of 6.5–6.23 (Markus Kuhn's decoder test data, as the suite has them).
pub(super) fn utf8_families() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let h = |s: &str| -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    };
    let hs = |v: &[&str]| v.iter().map(|s| h(s)).collect::<Vec<_>>();
    let kosme = h("cebae1bdb9cf83cebcceb5");
    vec![
        (
            "6.5",
            hs(&[
                "68656c6c6f24776f726c64",
                "68656c6c6fc2a2776f726c64",
                "68656c6c6fe282ac776f726c64",
                "68656c6c6ff0a4ada2776f726c64",
                "cebae1bdb9cf83cebcceb5",
            ]),
        ),
        ("6.6", (1..=11).map(|n| kosme[..n].to_vec()).collect()),
        ("6.7", hs(&["00", "c280", "e0a080", "f0908080"])),
        ("6.8", hs(&["f888808080", "fc8480808080"])),
        ("6.9", hs(&["7f", "dfbf", "efbfbf", "f48fbfbf"])),
        ("6.10", hs(&["f7bfbfbf", "fbbfbfbfbf", "fdbfbfbfbfbf"])),
        (
            "6.11",
            hs(&["ed9fbf", "ee8080", "efbfbd", "f48fbfbf", "f4908080"]),
        ),
        ("6.12", {
            let mut v = hs(&[
                "80",
                "bf",
                "80bf",
                "80bf80",
                "80bf80bf",
                "80bf80bf80",
                "80bf80bf80bf",
            ]);
            v.push((0x80..=0xbe).collect());
            v
        }),
        (
            "6.13",
            vec![
                (0xc0..=0xdeu8).flat_map(|b| [b, 0x20]).collect(),
                (0xe0..=0xeeu8).flat_map(|b| [b, 0x20]).collect(),
                h("f020f120f220f320f420f520f620"),
                h("f820f920fa20"),
                h("fc20"),
            ],
        ),
        (
            "6.14",
            hs(&[
                "c0",
                "e080",
                "f08080",
                "f8808080",
                "fc80808080",
                "df",
                "efbf",
                "f7bfbf",
                "fbbfbfbf",
                "fdbfbfbfbf",
            ]),
        ),
        (
            "6.15",
            hs(&["c0e080f08080f8808080fc80808080dfefbff7bfbffbbfbfbffdbfbfbfbf"]),
        ),
        ("6.16", hs(&["fe", "ff", "fefeffff"])),
        (
            "6.17",
            hs(&["c0af", "e080af", "f08080af", "f8808080af", "fc80808080af"]),
        ),
        (
            "6.18",
            hs(&["c1bf", "e09fbf", "f08fbfbf", "f887bfbfbf", "fc83bfbfbfbf"]),
        ),
        (
            "6.19",
            hs(&["c080", "e08080", "f0808080", "f880808080", "fc8080808080"]),
        ),
        (
            "6.20",
            hs(&[
                "eda080", "edadbf", "edae80", "edafbf", "edb080", "edbe80", "edbfbf",
            ]),
        ),
        (
            "6.21",
            hs(&[
                "eda080edb080",
                "eda080edbfbf",
                "edadbfedb080",
                "edadbfedbfbf",
                "edae80edb080",
                "edae80edbfbf",
                "edafbfedb080",
                "edafbfedbfbf",
            ]),
        ),
        (
            "6.22",
            (0..17u32)
                .flat_map(|plane| {
                    let base = if plane == 0 {
                        0xFFFE
                    } else {
                        plane * 0x10000 + 0xFFFE
                    };
                    [base, base + 1].map(|c| char::from_u32(c).unwrap().to_string().into_bytes())
                })
                .collect(),
        ),
        (
            "6.23",
            (0xFFF9..=0xFFFFu32)
                .map(|c| char::from_u32(c).unwrap().to_string().into_bytes())
                .collect(),
        ),
    ]
}

pub(super) fn section_6() -> Vec<Case> {
    let mut cases = Vec::new();
    let echo = Close::Echo;
    let fail = || Close::Fail(vec![1007]);
    cases.push(case(
        "6.1.1",
        "5.6",
        vec![send(vec![text(b"")])],
        vec![t(b"")],
        echo.clone(),
    ));
    cases.push(case(
        "6.1.2",
        "5.4, 5.6",
        vec![send(vec![
            fr(false, TEXT, b""),
            fr(false, CONTINUATION, b""),
            fr(true, CONTINUATION, b""),
        ])],
        vec![t(b"")],
        echo.clone(),
    ));
    cases.push(case(
        "6.1.3",
        "5.4, 5.6",
        vec![send(vec![
            fr(false, TEXT, b""),
            fr(false, CONTINUATION, b"middle frame payload"),
            fr(true, CONTINUATION, b""),
        ])],
        vec![t(b"middle frame payload")],
        echo.clone(),
    ));
    let greek = "Hello-µ@ßöäüàá-UTF-8!!".as_bytes();
    let kosme = "κόσμε".as_bytes();
    let one_byte_frames = |p: &[u8]| -> Vec<Vec<u8>> {
        let n = p.len();
        p.iter()
            .enumerate()
            .map(|(i, b)| fr(i + 1 == n, if i == 0 { TEXT } else { CONTINUATION }, &[*b]))
            .collect()
    };
    cases.push(case(
        "6.2.1",
        "8.1",
        vec![send(vec![text(greek)])],
        vec![t(greek)],
        echo.clone(),
    ));
    let cut = "Hello-µ@ßöä".len();
    cases.push(case(
        "6.2.2",
        "8.1",
        vec![send(vec![
            fr(false, TEXT, &greek[..cut]),
            fr(true, CONTINUATION, &greek[cut..]),
        ])],
        vec![t(greek)],
        echo.clone(),
    ));
    cases.push(case(
        "6.2.3",
        "8.1",
        vec![send(one_byte_frames(greek))],
        vec![t(greek)],
        echo.clone(),
    ));
    cases.push(case(
        "6.2.4",
        "8.1",
        vec![send(one_byte_frames(kosme))],
        vec![t(kosme)],
        echo.clone(),
    ));
    let bad = [kosme, &[0xed, 0xa0, 0x80], b"edited"].concat();
    cases.push(case(
        "6.3.1",
        "8.1",
        vec![send(vec![text(&bad)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "6.3.2",
        "8.1",
        vec![send(one_byte_frames(&bad))],
        vec![],
        fail(),
    ));
    // 6.4: fail fast, across fragments (6.4.1, 6.4.2) and inside one frame (6.4.3, 6.4.4).
    let fast =
        "the frame's payload is checked once the frame is whole, so the connection fails at \
                the end of the frame that holds the invalid bytes, not inside it";
    let pieces_a: [&[u8]; 3] = [kosme, &[0xf4, 0x90, 0x80, 0x80], b"edited"];
    let pieces_b: [Vec<u8>; 3] = [
        [kosme, &[0xf4][..]].concat(),
        vec![0x90],
        [&[0x80, 0x80][..], b"edited"].concat(),
    ];
    for (id, pieces) in [
        ("6.4.1", pieces_a.map(<[u8]>::to_vec)),
        ("6.4.2", pieces_b.clone()),
    ] {
        let acts = vec![
            send(vec![fr(false, TEXT, &pieces[0])]),
            Act::Pause(200),
            Act::Mark("A"),
            send(vec![fr(false, CONTINUATION, &pieces[1])]),
            Act::Pause(200),
            Act::Mark("B"),
            send(vec![fr(true, CONTINUATION, &pieces[2])]),
        ];
        let mut c = case(id, "8.1", acts, vec![Ev::Mark("A")], fail());
        c.non_strict = Some((
            vec![Ev::Mark("A"), Ev::Mark("B")],
            "fails at the message's end",
        ));
        cases.push(c);
    }
    for (id, pieces) in [("6.4.3", pieces_a.map(<[u8]>::to_vec)), ("6.4.4", pieces_b)] {
        let whole = text(&pieces.concat());
        let header = whole.len() - pieces.concat().len();
        let (a, rest) = whole.split_at(header + pieces[0].len());
        let (b2, c2) = rest.split_at(pieces[1].len());
        let acts = vec![
            send(vec![a.to_vec()]),
            Act::Pause(200),
            Act::Mark("A"),
            send(vec![b2.to_vec()]),
            Act::Pause(200),
            Act::Mark("B"),
            send(vec![c2.to_vec()]),
        ];
        let mut c = case(id, "8.1", acts, vec![Ev::Mark("A")], fail());
        c.non_strict = Some((vec![Ev::Mark("A"), Ev::Mark("B")], fast));
        cases.push(c);
    }
    for (family, payloads) in utf8_families() {
        for (i, p) in payloads.into_iter().enumerate() {
            let id = format!("{family}.{}", i + 1);
            let mut c = if std::str::from_utf8(&p).is_ok() {
                case(
                    id,
                    "5.6, 8.1",
                    vec![send(vec![text(&p)])],
                    vec![t(&p)],
                    echo.clone(),
                )
            } else {
                case(id, "5.6, 8.1", vec![send(vec![text(&p)])], vec![], fail())
            };
            c.wait = Duration::from_millis(500);
            cases.push(c);
        }
    }
    cases
}

pub(super) fn section_7() -> Vec<Case> {
    let mut cases = Vec::new();
    let close = |b: &[u8]| fr(true, CLOSE, b);
    let c1000 = close_body(1000, b"");
    let answer = || Close::Answer(vec![1000], true);
    let hw = b"Hello World!";
    cases.push(case(
        "7.1.1",
        "5.5.1, 7.1.2",
        vec![send(vec![text(hw)])],
        vec![t(hw)],
        Close::Echo,
    ));
    cases.push(case(
        "7.1.2",
        "5.5.1",
        vec![send(vec![close(&c1000), close(b"")])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.3",
        "5.5.1, 5.5.2",
        vec![send(vec![close(&c1000), fr(true, PING, b"")])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.4",
        "5.5.1",
        vec![send(vec![close(&c1000), text(hw)])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.5",
        "5.4, 5.5.1",
        vec![send(vec![
            fr(false, TEXT, b"fragment1"),
            close(&c1000),
            fr(true, CONTINUATION, b"fragment2"),
        ])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.6",
        "5.5.1",
        vec![send(vec![
            text(&repeat(b"BAsd7&jh23", 262_144)),
            text(hw),
            close(&c1000),
            fr(true, PING, b""),
        ])],
        vec![],
        Close::Info,
    ));
    cases.push(case(
        "7.3.1",
        "5.5.1",
        vec![send(vec![close(b"")])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.2",
        "5.5.1",
        vec![send(vec![close(b"a")])],
        vec![],
        Close::Answer(vec![1002], false),
    ));
    cases.push(case(
        "7.3.3",
        "5.5.1",
        vec![send(vec![close(&c1000)])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.4",
        "5.5.1",
        vec![send(vec![close(&close_body(1000, hw))])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.5",
        "5.5, 5.5.1",
        vec![send(vec![close(&close_body(1000, &[b'*'; 123]))])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.6",
        "5.5",
        vec![send(vec![close(&close_body(1000, &[b'*'; 124]))])],
        vec![],
        Close::Answer(vec![1002], false),
    ));
    let bad_reason = ["κόσμε".as_bytes(), &[0xed, 0xa0, 0x80], b"edited"].concat();
    cases.push(case(
        "7.5.1",
        "5.5.1, 8.1",
        vec![send(vec![close(&close_body(1000, &bad_reason))])],
        vec![],
        Close::Answer(vec![1002, 1007], false),
    ));
    for (i, c) in [
        1000u16, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999,
    ]
    .into_iter()
    .enumerate()
    {
        cases.push(case(
            format!("7.7.{}", i + 1),
            "7.4.1, 7.4.2",
            vec![send(vec![close(&close_body(c, b""))])],
            vec![],
            Close::Answer(vec![1000, c], true),
        ));
    }
    for (i, c) in [0u16, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999]
        .into_iter()
        .enumerate()
    {
        cases.push(case(
            format!("7.9.{}", i + 1),
            "7.4.1, 7.4.2",
            vec![send(vec![close(&close_body(c, b""))])],
            vec![],
            Close::Answer(vec![1002], false),
        ));
    }
    for (i, c) in [5000u16, 65535].into_iter().enumerate() {
        cases.push(case(
            format!("7.13.{}", i + 1),
            "7.4.2",
            vec![send(vec![close(&close_body(c, b""))])],
            vec![],
            Close::Info,
        ));
    }
    cases
}

/// Section 9's cases, each built when it runs (together they are some 150 MiB).
pub(super) fn section_9() -> Vec<Box<dyn Fn() -> Case>> {
    let mut cases: Vec<Box<dyn Fn() -> Case>> = Vec::new();
    let sizes = [65_536, 262_144, 1 << 20, 4 << 20, 8 << 20, 16 << 20];
    const TEXT_PAT: &[u8] = b"BAsd7&jh23";
    const BIN_PAT: &[u8] = &[0x00, 0xfe, 0x23, 0xfa, 0xf0];
    // One message of `n` bytes of `pat`, in frames of `size` bytes, written in `w`.
    fn big(id: String, op: u8, pat: &'static [u8], n: usize, size: usize, w: Write) -> Case {
        let p = repeat(pat, n);
        let count = p.len().div_ceil(size);
        let frames = p
            .chunks(size)
            .enumerate()
            .map(|(i, c)| fr(i + 1 == count, if i == 0 { op } else { CONTINUATION }, c))
            .collect();
        let mut c = case(
            id,
            "10.4, 7.4.1",
            vec![Act::Send(frames, w)],
            vec![Ev::Msg(op == TEXT, p)],
            Close::Echo,
        );
        c.wait = Duration::from_secs(100);
        c
    }
    for (i, n) in sizes.into_iter().enumerate() {
        cases.push(Box::new(move || {
            big(format!("9.1.{}", i + 1), TEXT, TEXT_PAT, n, n, Write::One)
        }));
    }
    for (i, n) in sizes.into_iter().enumerate() {
        cases.push(Box::new(move || {
            big(format!("9.2.{}", i + 1), BINARY, BIN_PAT, n, n, Write::One)
        }));
    }
    let frag_sizes = [
        64,
        256,
        1024,
        4096,
        16_384,
        65_536,
        262_144,
        1 << 20,
        4 << 20,
    ];
    for (sub, op, pat) in [(3, TEXT, b"*"), (4, BINARY, &[0xFE])] {
        for (i, size) in frag_sizes.into_iter().enumerate() {
            let pat: &'static [u8] = if sub == 4 && i == 8 { b"*" } else { pat };
            cases.push(Box::new(move || {
                big(
                    format!("9.{sub}.{}", i + 1),
                    op,
                    pat,
                    4 << 20,
                    size,
                    Write::One,
                )
            }));
        }
    }
    for (sub, op, pat) in [(5, TEXT, TEXT_PAT), (6, BINARY, BIN_PAT)] {
        for (i, chop) in [64, 128, 256, 512, 1024, 2048].into_iter().enumerate() {
            cases.push(Box::new(move || {
                big(
                    format!("9.{sub}.{}", i + 1),
                    op,
                    pat,
                    1 << 20,
                    1 << 20,
                    Write::Chop(chop),
                )
            }));
        }
    }
    for (sub, op, byte) in [(7, TEXT, b'*'), (8, BINARY, 0xFE)] {
        for (i, n) in [0, 16, 64, 256, 1024, 4096].into_iter().enumerate() {
            cases.push(Box::new(move || {
                let p = vec![byte; n];
                let f = fr(true, op, &p);
                let acts = (0..1000).map(|_| Act::RoundTrip(f.clone())).collect();
                let mut c = case(
                    format!("9.{sub}.{}", i + 1),
                    "10.4",
                    acts,
                    vec![Ev::Msg(op == TEXT, p); 1000],
                    Close::Echo,
                );
                c.wait = Duration::from_secs(60);
                c
            }));
        }
    }
    cases
}
