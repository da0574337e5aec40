/* Pyexpat builtin module
*
*
*/

use crate::vm::{builtins::PyModule, extend_module, PyRef, VirtualMachine};

pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = _pyexpat::make_module(vm);

    extend_module!(vm, &module, {
         "errors" => _errors::make_module(vm),
         "model" => _model::make_module(vm),
         "ExpatError" => _pyexpat::error(vm),
    });

    module
}

macro_rules! create_property {
    ($ctx: expr, $attributes: expr, $name: expr, $class: expr, $element: ident) => {
        let attr = $ctx.new_getset(
            $name,
            $class,
            move |this: &PyExpatLikeXmlParser| this.$element.read().clone(),
            move |this: &PyExpatLikeXmlParser, func: PyObjectRef| *this.$element.write() = func,
        );

        $attributes.insert($ctx.intern_str($name), attr.into());
    };
}

/// fluidc's patch: enough of expat for `xml.etree.ElementTree` (`ET.parse`,
/// `ET.fromstring`, `XMLParser.feed`), which 2019 detection scripts use to
/// read Pascal VOC annotations. The crate's parser refused the
/// `ParserCreate(None, "}")` ElementTree makes, had none of the handlers it
/// sets, gave attributes as a dict where `ordered_attributes` asks for a
/// list, took only str, parsed each `Parse` call as a whole document and
/// dropped the handlers' exceptions. Here `Parse` buffers the data until
/// its final call and then parses the document with xml-rs (the crate's
/// choice), calling the handlers expat would call with what expat gives
/// them; a malformed document raises `ExpatError` with expat's `lineno`,
/// `offset` and a `code`. Namespace declarations, doctypes and the other
/// handlers minidom's builder sets are not reported.
#[pymodule(name = "pyexpat")]
mod _pyexpat {
    use crate::vm::{
        builtins::{PyBaseExceptionRef, PyBytes, PyStr, PyStrRef, PyType, PyTypeRef},
        function::{ArgBytesLike, OptionalArg, OptionalOption},
        AsObject, Context, Py, PyObjectRef, PyPayload, PyRef, PyResult, TryFromObject,
        VirtualMachine,
    };
    use rustpython_common::lock::PyRwLock;
    use std::io::Cursor;
    use xml::common::Position;
    use xml::reader::XmlEvent;
    type MutableObject = PyRwLock<PyObjectRef>;

    /// expat's version, as `pyexpat.version_info` reports the one CPython
    /// 3.11 was built with.
    #[pyattr]
    fn version_info(vm: &VirtualMachine) -> PyObjectRef {
        vm.new_tuple((2, 5, 0)).into()
    }

    #[pyattr]
    const EXPAT_VERSION: &str = "expat_2.5.0";

    #[pyattr(name = "native_encoding")]
    const NATIVE_ENCODING: &str = "UTF-8";

    #[pyattr(once)]
    pub(super) fn error(vm: &VirtualMachine) -> PyTypeRef {
        vm.ctx.new_exception_type(
            "xml.parsers.expat",
            "ExpatError",
            Some(vec![vm.ctx.exceptions.exception_type.to_owned()]),
        )
    }

    #[pyattr]
    #[pyclass(name = "xmlparser", module = false, traverse)]
    #[derive(Debug, PyPayload)]
    pub struct PyExpatLikeXmlParser {
        start_element: MutableObject,
        end_element: MutableObject,
        character_data: MutableObject,
        entity_decl: MutableObject,
        buffer_text: MutableObject,
        ordered_attributes: MutableObject,
        specified_attributes: MutableObject,
        default_handler: MutableObject,
        default_handler_expand: MutableObject,
        start_namespace_decl: MutableObject,
        end_namespace_decl: MutableObject,
        comment: MutableObject,
        processing_instruction: MutableObject,
        #[pytraverse(skip)]
        namespace_separator: Option<String>,
        /// The document so far: `Parse` parses it at its final call.
        #[pytraverse(skip)]
        pending: PyRwLock<Vec<u8>>,
    }
    type PyExpatLikeXmlParserRef = PyRef<PyExpatLikeXmlParser>;

    /// Calls a handler the script set (None: no handler), passing on its
    /// exception as expat does.
    fn invoke_handler(
        vm: &VirtualMachine,
        handler: &MutableObject,
        args: Vec<PyObjectRef>,
    ) -> PyResult<()> {
        let handler = handler.read().clone();
        if !vm.is_none(&handler) {
            handler.call(args, vm)?;
        }
        Ok(())
    }

    #[pyclass]
    impl PyExpatLikeXmlParser {
        fn new(
            namespace_separator: Option<String>,
            vm: &VirtualMachine,
        ) -> PyResult<PyExpatLikeXmlParserRef> {
            let none = || MutableObject::new(vm.ctx.none());
            Ok(PyExpatLikeXmlParser {
                start_element: none(),
                end_element: none(),
                character_data: none(),
                entity_decl: none(),
                buffer_text: MutableObject::new(vm.ctx.new_bool(false).into()),
                ordered_attributes: MutableObject::new(vm.ctx.new_bool(false).into()),
                specified_attributes: MutableObject::new(vm.ctx.new_bool(false).into()),
                default_handler: none(),
                default_handler_expand: none(),
                start_namespace_decl: none(),
                end_namespace_decl: none(),
                comment: none(),
                processing_instruction: none(),
                namespace_separator,
                pending: PyRwLock::new(Vec::new()),
            }
            .into_ref(&vm.ctx))
        }

        #[extend_class]
        fn extend_class_with_fields(ctx: &Context, class: &'static Py<PyType>) {
            let mut attributes = class.attributes.write();

            create_property!(ctx, attributes, "StartElementHandler", class, start_element);
            create_property!(ctx, attributes, "EndElementHandler", class, end_element);
            create_property!(
                ctx,
                attributes,
                "CharacterDataHandler",
                class,
                character_data
            );
            create_property!(ctx, attributes, "EntityDeclHandler", class, entity_decl);
            create_property!(ctx, attributes, "buffer_text", class, buffer_text);
            create_property!(
                ctx,
                attributes,
                "ordered_attributes",
                class,
                ordered_attributes
            );
            create_property!(
                ctx,
                attributes,
                "specified_attributes",
                class,
                specified_attributes
            );
            create_property!(ctx, attributes, "DefaultHandler", class, default_handler);
            create_property!(
                ctx,
                attributes,
                "DefaultHandlerExpand",
                class,
                default_handler_expand
            );
            create_property!(
                ctx,
                attributes,
                "StartNamespaceDeclHandler",
                class,
                start_namespace_decl
            );
            create_property!(
                ctx,
                attributes,
                "EndNamespaceDeclHandler",
                class,
                end_namespace_decl
            );
            create_property!(ctx, attributes, "CommentHandler", class, comment);
            create_property!(
                ctx,
                attributes,
                "ProcessingInstructionHandler",
                class,
                processing_instruction
            );
        }

        fn flag(&self, flag: &MutableObject, vm: &VirtualMachine) -> PyResult<bool> {
            flag.read().clone().try_to_bool(vm)
        }

        /// A name as expat reports it: `uri}local` for a namespaced name
        /// when the parser was made with a separator, else as written.
        fn name(&self, name: &xml::name::OwnedName) -> String {
            match (&self.namespace_separator, &name.namespace) {
                (Some(sep), Some(ns)) if !ns.is_empty() => {
                    format!("{ns}{sep}{}", name.local_name)
                }
                (None, _) => match &name.prefix {
                    Some(prefix) => format!("{prefix}:{}", name.local_name),
                    None => name.local_name.clone(),
                },
                _ => name.local_name.clone(),
            }
        }

        fn parse_error(&self, e: &xml::reader::Error, vm: &VirtualMachine) -> PyBaseExceptionRef {
            let pos = e.position();
            self.error_at(e.msg(), pos.row + 1, pos.column, vm)
        }

        /// `ExpatError("<what>: line L, column C")` with expat's attributes.
        fn error_at(
            &self,
            what: &str,
            lineno: u64,
            offset: u64,
            vm: &VirtualMachine,
        ) -> PyBaseExceptionRef {
            let exc =
                vm.new_exception_msg(error(vm), format!("{what}: line {lineno}, column {offset}"));
            // expat's XML_ERROR_SYNTAX as the code: xml-rs does not say
            // which of expat's codes its error would be.
            for (name, value) in [("lineno", lineno), ("offset", offset), ("code", 2)] {
                let _ =
                    exc.as_object()
                        .set_attr(vm.ctx.intern_str(name), vm.ctx.new_int(value), vm);
            }
            exc
        }

        fn do_parse(&self, data: Vec<u8>, vm: &VirtualMachine) -> PyResult<()> {
            let config = xml::ParserConfig::new()
                .cdata_to_characters(true)
                .coalesce_characters(self.flag(&self.buffer_text, vm)?)
                .whitespace_to_characters(true)
                .ignore_comments(false);
            let ordered = self.flag(&self.ordered_attributes, vm)?;
            let mut reader = config.create_reader(Cursor::new(data));
            // Elements open, and whether the document element has closed
            // (expat refuses a second one; xml-rs reads on).
            let (mut depth, mut root_closed) = (0usize, false);
            loop {
                let event = reader.next().map_err(|e| self.parse_error(&e, vm))?;
                match event {
                    XmlEvent::EndDocument => break,
                    XmlEvent::StartElement { .. } if root_closed => {
                        let pos = reader.position();
                        return Err(self.error_at(
                            "junk after document element",
                            pos.row + 1,
                            pos.column,
                            vm,
                        ));
                    }
                    XmlEvent::StartElement {
                        name, attributes, ..
                    } => {
                        depth += 1;
                        let name: PyObjectRef = vm.ctx.new_str(self.name(&name)).into();
                        let attrs: PyObjectRef = if ordered {
                            let mut flat = Vec::with_capacity(2 * attributes.len());
                            for a in attributes {
                                flat.push(vm.ctx.new_str(self.name(&a.name)).into());
                                flat.push(vm.ctx.new_str(a.value).into());
                            }
                            vm.ctx.new_list(flat).into()
                        } else {
                            let dict = vm.ctx.new_dict();
                            for a in attributes {
                                dict.set_item(
                                    self.name(&a.name).as_str(),
                                    vm.ctx.new_str(a.value).into(),
                                    vm,
                                )?;
                            }
                            dict.into()
                        };
                        invoke_handler(vm, &self.start_element, vec![name, attrs])?;
                    }
                    XmlEvent::EndElement { name } => {
                        depth -= 1;
                        root_closed = depth == 0;
                        let name = vm.ctx.new_str(self.name(&name)).into();
                        invoke_handler(vm, &self.end_element, vec![name])?;
                    }
                    XmlEvent::Characters(text) => {
                        let text = PyStr::from(text).into_ref(&vm.ctx).into();
                        invoke_handler(vm, &self.character_data, vec![text])?;
                    }
                    XmlEvent::Comment(text) => {
                        let text = vm.ctx.new_str(text).into();
                        invoke_handler(vm, &self.comment, vec![text])?;
                    }
                    XmlEvent::ProcessingInstruction { name, data } => {
                        let args = vec![
                            vm.ctx.new_str(name).into(),
                            vm.ctx.new_str(data.unwrap_or_default()).into(),
                        ];
                        invoke_handler(vm, &self.processing_instruction, args)?;
                    }
                    _ => {}
                }
            }
            Ok(())
        }

        #[pymethod(name = "Parse")]
        fn parse(
            &self,
            data: PyObjectRef,
            isfinal: OptionalArg<bool>,
            vm: &VirtualMachine,
        ) -> PyResult<i32> {
            if let Some(s) = data.payload::<PyStr>() {
                self.pending
                    .write()
                    .extend_from_slice(s.as_str().as_bytes());
            } else {
                let bytes = ArgBytesLike::try_from_object(vm, data)?;
                self.pending.write().extend_from_slice(&bytes.borrow_buf());
            }
            if isfinal.unwrap_or(false) {
                let document = std::mem::take(&mut *self.pending.write());
                self.do_parse(document, vm)?;
            }
            Ok(1)
        }

        #[pymethod(name = "ParseFile")]
        fn parse_file(&self, file: PyObjectRef, vm: &VirtualMachine) -> PyResult<i32> {
            let read = vm.call_method(&file, "read", ())?;
            if read.payload::<PyBytes>().is_none() {
                return Err(vm.new_type_error(format!(
                    "read() did not return a bytes object (type={})",
                    read.class().name()
                )));
            }
            self.parse(read, OptionalArg::Present(true), vm)
        }
    }

    #[derive(FromArgs)]
    #[allow(dead_code)]
    struct ParserCreateArgs {
        #[pyarg(any, optional)]
        encoding: OptionalOption<PyStrRef>,
        #[pyarg(any, optional)]
        namespace_separator: OptionalOption<PyStrRef>,
        #[pyarg(any, optional)]
        intern: OptionalArg<PyObjectRef>,
    }

    #[pyfunction(name = "ParserCreate")]
    fn parser_create(
        args: ParserCreateArgs,
        vm: &VirtualMachine,
    ) -> PyResult<PyExpatLikeXmlParserRef> {
        let separator = args
            .namespace_separator
            .flatten()
            .map(|s| s.as_str().to_owned());
        PyExpatLikeXmlParser::new(separator, vm)
    }
}

#[pymodule(name = "model")]
mod _model {}

#[pymodule(name = "errors")]
mod _errors {}
