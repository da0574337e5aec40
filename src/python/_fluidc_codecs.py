"""The CJK codecs of CPython's `_codecs_cn`/`_tw`/`_jp`/`_kr` (gbk, gb2312,
gb18030, big5, shift_jis, euc_jp, euc_kr and their code-page names), over
the native tables of `_fluidc.cjk_decode`/`cjk_encode` (encoding_rs), so
`open(path, encoding='gbk')`, `codecs.open` and `bytes.decode('gbk')` read
the data files of 2018-19 Chinese scripts."""
import codecs

import _fluidc

# CPython's codec name (what its messages and CodecInfo.name say) for each
# alias it accepts, and the WHATWG label whose tables read it.
_CODECS = {
    "gbk": ("gbk", ["936", "cp936", "ms936"]),
    "gb2312": ("gbk", ["chinese", "csiso58gb231280", "euc_cn", "euccn", "eucgb2312_cn",
                       "gb2312_1980", "gb2312_80", "iso_ir_58"]),
    "gb18030": ("gb18030", ["gb18030_2000"]),
    "big5": ("big5", ["big5_tw", "csbig5"]),
    "cp950": ("big5", ["950", "ms950"]),
    "shift_jis": ("shift_jis", ["csshiftjis", "shiftjis", "sjis", "s_jis"]),
    "cp932": ("shift_jis", ["932", "ms932", "mskanji", "ms_kanji"]),
    "euc_jp": ("euc-jp", ["eucjp", "ujis", "u_jis"]),
    "euc_kr": ("euc-kr", ["euckr", "korean", "ksc5601", "ks_c_5601", "ks_c_5601_1987",
                          "ksx1001", "ks_x_1001"]),
    "cp949": ("euc-kr", ["949", "ms949", "uhc"]),
}
_ALIASES = {}
for _name, (_label, _more) in _CODECS.items():
    for _alias in [_name] + _more:
        _ALIASES[_alias] = _name


def _codec_info(name):
    label = _CODECS[name][0]

    def encode(input, errors="strict"):
        return _fluidc.cjk_encode(name, label, input, errors)

    def decode(input, errors="strict"):
        return _fluidc.cjk_decode(name, label, input, errors, True)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, input, final=False):
            return _fluidc.cjk_encode(name, label, input, self.errors)[0]

    class IncrementalDecoder(codecs.IncrementalDecoder):
        # codecs.BufferedIncrementalDecoder's, written here so that a
        # decoding error's traceback has no `<frozen codecs>` frame (CPython's
        # CJK decoders are C).
        def __init__(self, errors="strict"):
            codecs.IncrementalDecoder.__init__(self, errors)
            self.buffer = b""

        def decode(self, input, final=False):
            data = self.buffer + input
            output, consumed = _fluidc.cjk_decode(name, label, data, self.errors, final)
            self.buffer = data[consumed:]
            return output

        def reset(self):
            self.buffer = b""

        def getstate(self):
            return (self.buffer, 0)

        def setstate(self, state):
            self.buffer = state[0]

    class StreamWriter(codecs.StreamWriter):
        def encode(self, input, errors="strict"):
            return _fluidc.cjk_encode(name, label, input, errors)

    class StreamReader(codecs.StreamReader):
        def decode(self, input, errors="strict"):
            return _fluidc.cjk_decode(name, label, input, errors, False)

    return codecs.CodecInfo(name=name, encode=encode, decode=decode,
                            incrementalencoder=IncrementalEncoder,
                            incrementaldecoder=IncrementalDecoder,
                            streamwriter=StreamWriter, streamreader=StreamReader)


def _search(encoding):
    name = _ALIASES.get(encoding.lower().replace("-", "_").replace(" ", "_"))
    return _codec_info(name) if name else None


codecs.register(_search)
