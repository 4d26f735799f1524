package main

import (
	"fmt"
	"strings"
	"unicode"
)

// The three scripts completionScript writes. Each holds the command
// table as data (which words, flags and choices follow each command path:
// shTables, fishTables) and one function that walks the words typed so
// far through it: the command words found descend the tree, a flag that
// takes a value skips that value, "--" ends the flags, the rest are
// positional arguments. What is completed then follows from where the walk
// ended (see completion.go).

// shTables writes the tables as sh functions, for bash and zsh alike:
// _a2a_node NODE sets _a2a_subs, _a2a_flags and _a2a_vflags; _a2a_value
// NODE FLAG and _a2a_arg NODE INDEX set _a2a_act ("w WORDS…", "f", "d" or
// "").
func (t *compTable) shTables(b *strings.Builder) {
	b.WriteString("_a2a_node() {\n\tcase $1 in\n")
	for _, n := range t.nodes {
		subs, flags, vflags := n.words()
		fmt.Fprintf(b, "\t%s) _a2a_subs=%s _a2a_flags=%s _a2a_vflags=%s ;;\n", shQuote(n.key), shQuote(subs), shQuote(flags), shQuote(vflags))
	}
	b.WriteString("\t*) _a2a_subs='' _a2a_flags='' _a2a_vflags=' ' ;;\n\tesac\n}\n\n")
	for _, fn := range []struct {
		name string
		keys [][]string
		acts []string
	}{{"_a2a_value", nil, nil}, {"_a2a_arg", nil, nil}} {
		keys, acts := t.actions()
		if fn.name == "_a2a_arg" {
			keys, acts = t.argActions()
		}
		fmt.Fprintf(b, "%s() {\n\tcase \"$1 $2\" in\n", fn.name)
		for i, a := range acts {
			fmt.Fprintf(b, "\t%s) _a2a_act=%s ;;\n", caseKeys(keys[i], "|"), shQuote(a))
		}
		b.WriteString("\t*) _a2a_act='' ;;\n\tesac\n}\n\n")
	}
}

// bash is the bash script (bash 3.2 and later: no associative arrays, no
// mapfile). bash splits "--flag=value" at "=" into three words when "="
// is in COMP_WORDBREAKS (the default); both forms are read.
func (t *compTable) bash() string {
	var b strings.Builder
	b.WriteString(`# bash completion for a2a, made by "a2a completion bash" from its command table.
# Load it in this shell:  source <(a2a completion bash)
# or in every shell:      a2a completion bash > ~/.local/share/bash-completion/completions/a2a

`)
	t.shTables(&b)
	b.WriteString(`_a2a_reply() {
	local line
	case $_a2a_act in
	'w '*) while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -P "$1" -W "${_a2a_act#w }" -- "$cur") ;;
	f) compopt -o filenames 2>/dev/null; while IFS= read -r line; do COMPREPLY+=("$1$line"); done < <(compgen -f -- "$cur") ;;
	d) compopt -o filenames 2>/dev/null; while IFS= read -r line; do COMPREPLY+=("$1$line"); done < <(compgen -d -- "$cur") ;;
	esac
}

_a2a() {
	local cur=${COMP_WORDS[COMP_CWORD]} node='' hnode='' hok=1 npos=0 ended=0 flag='' pre='' i=1 w words
	local _a2a_subs _a2a_flags _a2a_vflags _a2a_act
	COMPREPLY=()
	while ((i < COMP_CWORD)); do
		w=${COMP_WORDS[i]}
		i=$((i + 1))
		if ((!ended)) && [[ $w == -- ]]; then
			ended=1
		elif ((!ended)) && [[ $w == -?* ]]; then
			[[ $w == *=* ]] && continue
			if [[ ${COMP_WORDS[i]} == = ]] && ((i <= COMP_CWORD)); then
				if ((i == COMP_CWORD)); then flag=$w cur=''; elif ((i + 1 == COMP_CWORD)); then flag=$w; fi
				i=$((i + 2))
				continue
			fi
			_a2a_node "$node"
			if [[ $_a2a_vflags == *" $w "* ]]; then
				((i == COMP_CWORD)) && flag=$w
				i=$((i + 1))
			fi
		else
			_a2a_node "$node"
			if ((npos == 0)) && [[ " $_a2a_subs " == *" $w "* ]]; then
				node=${node:+$node }$w
				continue
			fi
			if [[ $node == help ]] && ((hok)); then
				_a2a_node "$hnode"
				if [[ " $_a2a_subs " == *" $w "* ]]; then hnode=${hnode:+$hnode }$w; else hok=0; fi
			fi
			npos=$((npos + 1))
		fi
	done
	if [[ -z $flag ]] && ((!ended)) && [[ $cur == -?*=* ]]; then
		flag=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}
	fi
	if [[ -n $flag ]]; then
		_a2a_value "$node" "$flag"
		_a2a_reply "$pre"
		return 0
	fi
	_a2a_node "$node"
	if ((!ended)) && [[ $cur == -* ]]; then
		_a2a_act="w $_a2a_flags"
	else
		words=''
		((npos == 0)) && words=$_a2a_subs
		if [[ $node == help ]]; then
			words=''
			if ((hok)); then _a2a_node "$hnode"; words=$_a2a_subs; fi
		fi
		_a2a_arg "$node" "$npos"
		[[ $_a2a_act == 'w '* ]] && words="$words ${_a2a_act#w }"
		_a2a_act="w $words"
	fi
	_a2a_reply ''
	return 0
}

complete -F _a2a a2a
`)
	return b.String()
}

// zsh is the zsh script: autoloaded from a file _a2a in $fpath, or sourced
// after compinit (it then registers itself with compdef).
func (t *compTable) zsh() string {
	var b strings.Builder
	b.WriteString(`#compdef a2a
# zsh completion for a2a, made by "a2a completion zsh" from its command table.
# Load it in this shell (after compinit):  source <(a2a completion zsh)
# or in every shell:  a2a completion zsh > "${fpath[1]}/_a2a"

`)
	t.shTables(&b)
	b.WriteString(`_a2a_reply() {
	local list
	case $_a2a_act in
	('w '*) list=${_a2a_act#w }; compadd -- ${=list} ;;
	(f) _files ;;
	(d) _files -/ ;;
	esac
}

_a2a() {
	local cur=${words[CURRENT]} node='' hnode='' hok=1 npos=0 ended=0 flag='' i=2 w list
	local _a2a_subs _a2a_flags _a2a_vflags _a2a_act
	while (( i < CURRENT )); do
		w=${words[i]}
		i=$(( i + 1 ))
		if (( !ended )) && [[ $w == -- ]]; then
			ended=1
		elif (( !ended )) && [[ $w == -?* ]]; then
			[[ $w == *=* ]] && continue
			_a2a_node "$node"
			if [[ $_a2a_vflags == *" $w "* ]]; then
				(( i == CURRENT )) && flag=$w
				i=$(( i + 1 ))
			fi
		else
			_a2a_node "$node"
			if (( npos == 0 )) && [[ " $_a2a_subs " == *" $w "* ]]; then
				node=${node:+$node }$w
				continue
			fi
			if [[ $node == help ]] && (( hok )); then
				_a2a_node "$hnode"
				if [[ " $_a2a_subs " == *" $w "* ]]; then hnode=${hnode:+$hnode }$w; else hok=0; fi
			fi
			npos=$(( npos + 1 ))
		fi
	done
	if [[ -z $flag ]] && (( !ended )) && [[ $cur == -?*=* ]]; then
		flag=${cur%%=*}
		compset -P '*='
	fi
	if [[ -n $flag ]]; then
		_a2a_value "$node" "$flag"
		_a2a_reply
		return
	fi
	_a2a_node "$node"
	if (( !ended )) && [[ $cur == -* ]]; then
		_a2a_act="w $_a2a_flags"
	else
		list=''
		(( npos == 0 )) && list=$_a2a_subs
		if [[ $node == help ]]; then
			list=''
			if (( hok )); then _a2a_node "$hnode"; list=$_a2a_subs; fi
		fi
		_a2a_arg "$node" "$npos"
		[[ $_a2a_act == 'w '* ]] && list="$list ${_a2a_act#w }"
		_a2a_act="w $list"
	fi
	_a2a_reply
}

if [[ $funcstack[1] == _a2a ]]; then
	_a2a "$@"
else
	compdef _a2a a2a
fi
`)
	return b.String()
}

// fishQuote is s in fish single quotes, made one line of printable text
// (a summary is the table's own text, but a description must not break
// the script).
func fishQuote(s string) string {
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, s)
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// fishList is words as fish arguments, each quoted.
func fishList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fishQuote(w)
	}
	return strings.Join(q, " ")
}

// fish is the fish script: one completion function that prints the
// candidates, with the summaries and usages as descriptions.
func (t *compTable) fish() string {
	var b strings.Builder
	b.WriteString(`# fish completion for a2a, made by "a2a completion fish" from its command table.
# Load it in this shell:  a2a completion fish | source
# or in every shell:      a2a completion fish > ~/.config/fish/completions/a2a.fish

function __a2a_node --argument-names node
    set -g __a2a_subs
    set -g __a2a_sums
    set -g __a2a_flags
    set -g __a2a_fsums
    set -g __a2a_vflags
    switch "$node"
`)
	for _, n := range t.nodes {
		var flags, fsums, vflags []string
		for _, f := range n.flags {
			for _, s := range offered(f) {
				flags, fsums = append(flags, s), append(fsums, f.Usage)
			}
		}
		for _, f := range n.vflags {
			vflags = append(vflags, forms(f)...)
		}
		fmt.Fprintf(&b, "        case %s\n", fishQuote(n.key))
		for _, v := range []struct {
			name  string
			words []string
		}{{"subs", n.subs}, {"sums", n.sums}, {"flags", flags}, {"fsums", fsums}, {"vflags", vflags}} {
			if len(v.words) > 0 {
				fmt.Fprintf(&b, "            set -g __a2a_%s %s\n", v.name, fishList(v.words))
			}
		}
	}
	b.WriteString("    end\nend\n\n")
	for _, fn := range []string{"__a2a_value", "__a2a_arg"} {
		keys, acts := t.actions()
		if fn == "__a2a_arg" {
			keys, acts = t.argActions()
		}
		fmt.Fprintf(&b, "function %s --argument-names node what\n    set -g __a2a_act\n    switch \"$node $what\"\n", fn)
		for i, a := range acts {
			fmt.Fprintf(&b, "        case %s\n            set -g __a2a_act %s\n", fishList(keys[i]), fishList(strings.Fields(a)))
		}
		b.WriteString("    end\nend\n\n")
	}
	b.WriteString(`function __a2a_reply --argument-names pre cur
    switch "$__a2a_act[1]"
        case w
            for w in $__a2a_act[2..-1]
                echo $pre$w
            end
        case f
            for p in (__fish_complete_path $cur)
                echo $pre$p
            end
        case d
            for p in (__fish_complete_directories $cur)
                echo $pre$p
            end
    end
end

function __a2a_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l node ''
    set -l hnode ''
    set -l hok 1
    set -l npos 0
    set -l ended 0
    set -l flag ''
    set -l pre ''
    set -l n (count $tokens)
    set -l i 2
    while test $i -le $n
        set -l w $tokens[$i]
        set i (math $i + 1)
        if test $ended = 0 -a "x$w" = x--
            set ended 1
        else if test $ended = 0; and string match -qr -- '^-.' "$w"
            string match -q -- '*=*' "$w"; and continue
            __a2a_node $node
            if contains -- "$w" $__a2a_vflags
                test $i -gt $n; and set flag "$w"
                set i (math $i + 1)
            end
        else
            __a2a_node $node
            if test $npos = 0; and contains -- "$w" $__a2a_subs
                set node (string trim -- "$node $w")
                continue
            end
            if test "$node" = help -a $hok = 1
                __a2a_node $hnode
                if contains -- "$w" $__a2a_subs
                    set hnode (string trim -- "$hnode $w")
                else
                    set hok 0
                end
            end
            set npos (math $npos + 1)
        end
    end
    if test -z "$flag" -a $ended = 0; and string match -qr -- '^-.+=' "$cur"
        set flag (string replace -r -- '=.*' '' "$cur")
        set pre "$flag="
        set cur (string replace -r -- '^[^=]*=' '' "$cur")
    end
    if test -n "$flag"
        __a2a_value $node $flag
        __a2a_reply $pre $cur
        return
    end
    __a2a_node $node
    if test $ended = 0; and string match -q -- '-*' "$cur"
        for j in (seq (count $__a2a_flags))
            printf '%s\t%s\n' $__a2a_flags[$j] $__a2a_fsums[$j]
        end
        return
    end
    if test "$node" = help
        if test $hok = 1
            __a2a_node $hnode
            for j in (seq (count $__a2a_subs))
                printf '%s\t%s\n' $__a2a_subs[$j] $__a2a_sums[$j]
            end
        end
        return
    end
    if test $npos = 0
        for j in (seq (count $__a2a_subs))
            printf '%s\t%s\n' $__a2a_subs[$j] $__a2a_sums[$j]
        end
    end
    __a2a_arg $node $npos
    __a2a_reply '' $cur
end

complete -c a2a -e
complete -c a2a -f -a '(__a2a_complete)'
`)
	return b.String()
}
